"""Streamed JSON output (engine.runs.hashing.write_json) is byte-identical to dump_json."""

from __future__ import annotations

import io
import random

from engine.runs.hashing import LazyMapping, dump_json, write_json

LEAVES = [1, 2.5, -0.0, 1e-17, 123456789.123456789, "x\ny\"é\\", "", None, True, [], {}, [1, {"a": 2}]]


def random_value(rng: random.Random, depth: int = 0, lazy: bool = False):
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice(LEAVES)
    if roll < 0.45:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    keys = [rng.choice(["a", "b", "é", "a b", "\n", "1", "B"]) + str(i) for i in range(rng.randint(0, 4))]
    values = {key: random_value(rng, depth + 1, lazy) for key in keys}
    if lazy and rng.random() < 0.5:
        return LazyMapping(list(values), values.__getitem__)
    return values


def materialised(value):
    if isinstance(value, LazyMapping) or isinstance(value, dict):
        return {key: materialised(value[key]) for key in value}
    return value


def streamed(value) -> str:
    handle = io.StringIO()
    write_json(handle, value)
    return handle.getvalue()


def test_streamed_json_equals_dump_json_on_random_trees():
    rng = random.Random(7)
    for _ in range(2000):
        value = random_value(rng, lazy=True)
        assert streamed(value) == dump_json(materialised(value))


def test_lazy_values_are_built_in_sorted_key_order_and_empty_ones_print_as_empty_objects():
    built = []

    def value_of(key):
        built.append(key)
        return {"n": len(key), "list": [key, 1.5]}

    value = {"z": 1, "scores": LazyMapping(["b", "a", "é"], value_of), "empty": LazyMapping([], value_of)}
    text = streamed(value)
    assert built == ["a", "b", "é"]
    assert text == dump_json({"z": 1, "scores": {k: {"n": len(k), "list": [k, 1.5]} for k in ("b", "a", "é")},
                              "empty": {}})
    assert '"empty": {}' in text
