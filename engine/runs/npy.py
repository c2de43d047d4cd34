"""Reading ``.npy`` arrays without trusting their headers.

A ``.npy`` header states a dtype and a shape; :func:`numpy.load` allocates what the header
says before reading the data. :func:`read_npy` reads the header first and refuses (InputError
naming the file) an array whose stated size does not match the bytes the file holds, an object
dtype (pickles are never loaded) or a non-regular file, so a 100-byte file cannot make us
allocate terabytes.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from engine.runs.errors import InputError
from engine.runs.jsonl import require_regular_file


def read_npy(path: str | Path) -> np.ndarray:
    """The array in a ``.npy`` file, after checking its header against the file's size."""
    path = Path(path)
    require_regular_file(path)
    try:
        with open(path, "rb") as handle:
            version = np.lib.format.read_magic(handle)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
            else:
                raise ValueError(f"unsupported .npy format version {version}")
            offset = handle.tell()
    except (OSError, ValueError, EOFError, SyntaxError) as exc:
        raise InputError(f"not a readable .npy array ({' '.join(str(exc).split())[:160]})", path=path)
    if dtype.hasobject:
        raise InputError("holds Python objects; only numeric .npy arrays are read", path=path)
    stated = math.prod(shape) * dtype.itemsize
    available = os.path.getsize(path) - offset
    if stated != available:
        raise InputError(f"its header states shape {shape} of {dtype} ({stated:,} bytes) but the file "
                         f"holds {available:,} data bytes", path=path)
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        raise InputError(f"not a readable .npy array ({' '.join(str(exc).split())[:160]})", path=path)
