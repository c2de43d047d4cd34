"""The chunked, coded run reader agrees with the line reader on every file, good or bad."""

from __future__ import annotations

import pytest

from engine.retrieval import ranking, trec_arrays
from engine.retrieval.trec import read_run
from engine.retrieval.trec_arrays import RunArrays, read_run_arrays
from engine.runs.errors import InputError

GOOD = (
    "q2 Q0 b 1 3.5 tag\n"
    "q2 Q0 a 2 3.5 tag\n"
    "q2 Q0 c 3 -1e-3 tag\n"
    "\n"
    "q1 Q0 c 1 2 tag\n"
    "q1\tQ0\té 2\t0.1 tag\n"
    "q1 Q0 B 3 0.1 tag\n"
    "q3 Q0 a -4 7.25 other\n"
)


def rows(arrays: RunArrays) -> set[tuple[str, str, float]]:
    return {(arrays.topics[t], arrays.docs[d], s)
            for t, d, s in zip(arrays.topic_code.tolist(), arrays.doc_code.tolist(), arrays.score.tolist())}


def line_rows(path) -> set[tuple[str, str, float]]:
    return {(topic, doc, score) for topic, ranked in read_run(path).items() for doc, score in ranked}


@pytest.fixture
def no_fallback(monkeypatch):
    """Fail if the reader falls back to the line reader (so a test proves the fast path ran)."""
    def refuse(path):
        raise AssertionError(f"fast path declined {path}")
    monkeypatch.setattr(trec_arrays, "_from_line_reader", refuse)


@pytest.mark.parametrize("chunk_rows", [1, 2, 3, 1_000_000])
def test_fast_path_reads_what_the_line_reader_reads(tmp_path, no_fallback, chunk_rows):
    path = tmp_path / "run.tsv"
    path.write_text(GOOD, encoding="utf-8")
    arrays = read_run_arrays(path, chunk_rows=chunk_rows)
    assert rows(arrays) == line_rows(path) and len(arrays) == 7
    assert arrays.topics == ["q2", "q1", "q3"]                  # first appearance
    assert arrays.docs == ["B", "a", "b", "c", "é"]             # code-point order
    assert arrays.score.tolist() == [3.5, 3.5, -0.001, 2.0, 0.1, 0.1, 7.25]  # file order


def test_crlf_line_ends_take_the_fast_path(tmp_path, no_fallback):
    path = tmp_path / "run.tsv"
    path.write_bytes(GOOD.replace("\n", "\r\n").encode())
    assert rows(read_run_arrays(path)) == line_rows(path)


@pytest.mark.parametrize("text, message", [
    ("q1 Q0 a 1 1.0\n", "run row needs 6 fields"),
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 0.5\n", ":2: run row needs 6 fields"),
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 0.5 t x\n", ":2: run row needs 6 fields"),
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b 2.0 0.5 t\n", ":2: non-integer rank '2.0'"),
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b +2 0.5 t\n", ":2: non-integer rank '+2'"),
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 nan t\n", ":2: score must be finite"),
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 inf t\n", ":2: score must be finite"),
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1e999 t\n", ":2: score must be finite"),
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 high t\n", ":2: non-numeric score 'high'"),
    ("q1 Q0 a 1 1.0 t\nq2 Q0 a 1 1.0 t\nq1 Q0 a 2 0.5 t\n", ":3: document 'a' listed twice"),
    ("q1 Q0 a\xa0x 1 1.0 t\n", ":1: run row needs 6 fields"),
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b\x0cx 2 0.5 t\n", ":2: run row needs 6 fields"),
    ("", "run file holds no rows"),
    ("\n\n", "run file holds no rows"),
    ("# only a comment\n", "run file holds no rows"),
])
def test_defects_get_the_line_readers_error(tmp_path, text, message):
    path = tmp_path / "run.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as fast:
        read_run_arrays(path, chunk_rows=1)
    with pytest.raises(InputError) as slow:
        read_run(path)
    assert str(fast.value) == str(slow.value) and message in str(fast.value)


@pytest.mark.parametrize("text", [
    "# run produced by a test\nq1 Q0 a 1 1.0 t\n",                 # comment line
    "\ufeffq1 Q0 a 1 1.0 t\n",                                      # byte-order mark (kept in the id)
    "q1 Q0 a 1 1_0 t\n",                                            # float() reads 1_0 as 10
    "q1 Q0 a 01 1.0 t\nq1 Q0 b -0 .5 t\n",                          # ranks and scores Python accepts
])
def test_files_the_fast_path_declines_read_as_the_line_reader_reads_them(tmp_path, text):
    path = tmp_path / "run.tsv"
    path.write_text(text, encoding="utf-8")
    assert rows(read_run_arrays(path)) == line_rows(path)


def test_invalid_utf8_and_directories_are_named(tmp_path):
    path = tmp_path / "run.tsv"
    path.write_bytes(b"q1 Q0 \xff 1 1.0 t\n")
    with pytest.raises(InputError, match="not valid UTF-8"):
        read_run_arrays(path)
    with pytest.raises(InputError):
        read_run_arrays(tmp_path)


def test_document_codes_follow_code_point_order_beyond_the_array_limit(monkeypatch):
    monkeypatch.setattr(ranking, "SORT_ARRAY_BYTES", 0)            # Python sorts the distinct ids
    arrays = RunArrays.from_rows(["q"] * 4, ["b", "a\x00", "é", "B"], [1.0, 2.0, 3.0, 4.0])
    assert arrays.docs == ["B", "a\x00", "b", "é"] and arrays.doc_code.tolist() == [2, 1, 3, 0]


def test_scores_are_the_doubles_float_gives(tmp_path, no_fallback):
    """Long mantissas, extreme exponents, subnormals: the C parser's doubles equal float()'s."""
    import random

    rng = random.Random(5)
    texts = []
    for _ in range(20_000):
        digits = str(rng.randint(0, 10 ** rng.randint(1, 25)))
        cut = rng.randint(0, len(digits))
        text = digits[:cut] + "." + digits[cut:]
        if rng.random() < 0.3:
            text += f"e{rng.randint(-320, 280 - len(digits))}"   # finite: overflow is a defect
        texts.append(("-" if rng.random() < 0.2 else "") + text)
    path = tmp_path / "run.tsv"
    path.write_text("".join(f"q Q0 d{i} {i + 1} {t} tag\n" for i, t in enumerate(texts)), encoding="utf-8")
    arrays = read_run_arrays(path, chunk_rows=7_000)
    assert arrays.score.tolist() == [float(t) for t in texts]


def test_gzip_takes_the_fast_path_and_keeps_the_run_tags(tmp_path, no_fallback):
    import gzip

    plain, packed = tmp_path / "run.tsv", tmp_path / "run.tsv.gz"
    plain.write_text(GOOD, encoding="utf-8")
    packed.write_bytes(gzip.compress(GOOD.encode("utf-8")))
    arrays = read_run_arrays(packed)
    assert rows(arrays) == rows(read_run_arrays(plain)) == line_rows(packed)
    assert arrays.tags == ["tag", "other"]


def test_a_byte_order_mark_is_read_as_the_line_reader_reads_it(tmp_path, capsys):
    path = tmp_path / "bom.tsv"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode("utf-8"))
    arrays = read_run_arrays(path)
    assert arrays.topics == ["q2", "q1", "q3"] and arrays.tags == ["tag", "other"]   # no "\ufeffq2"
    assert "UTF-8 byte-order mark removed" in capsys.readouterr().err
