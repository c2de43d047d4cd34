"""``chapter-audit budget run`` end to end on the hand-controlled fixtures in tests/data/budget.

Fixture (see tests/data/budget/make_data.py), unit lengths in codepoints, cap 1,200, sep 2:

* query 1337: 12 (1,108), 5 (1,298, positive), 9 (500) -- the chapter's case;
* query 2:    a, b, c (positive), d (positive), 300 each; b nearly identical to a (cos 0.99),
              c orthogonal to a, d at a negative cosine to a and orthogonal to c;
* query 3:    e (600), g (599, positive), f (598): 600 + 2 + 598 = 1,200 fits, g does not;
* query 4:    x (1,500), y (1,201, judged grade 0): nothing fits, empty packets;
* query 5:    p01..p11, 100 each, identical vectors; p02/p03 tie on score (p02 first);
              positives p04 (rank 4) and p11 (rank 11, beyond depth 10); p12 at rank 12 is not
              in the corpus, which is fine because it is not a candidate.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from engine.budget.selection import BudgetParams
from engine.budget.run import run_budget
from engine.runs.runlog import read_records

DATA = Path(__file__).resolve().parent / "data" / "budget"

EXPECTED_SELECTIONS = """\
query	selector	position	doc_id	original_rank	characters	cumulative_characters
1337	count	1	12	1	1108	1108
1337	count	2	5	2	1298	2408
1337	count	3	9	3	500	2910
1337	characters	1	12	1	1108	1108
1337	mmr	1	12	1	1108	1108
2	count	1	a	1	300	300
2	count	2	b	2	300	602
2	count	3	c	3	300	904
2	characters	1	a	1	300	300
2	characters	2	b	2	300	602
2	characters	3	c	3	300	904
2	mmr	1	a	1	300	300
2	mmr	2	c	3	300	602
2	mmr	3	d	4	300	904
3	count	1	e	1	600	600
3	count	2	g	2	599	1201
3	count	3	f	3	598	1801
3	characters	1	e	1	600	600
3	characters	2	f	3	598	1200
3	mmr	1	e	1	600	600
3	mmr	2	f	3	598	1200
4	count	1	x	1	1500	1500
4	count	2	y	2	1201	2703
5	count	1	p01	1	100	100
5	count	2	p02	2	100	202
5	count	3	p03	3	100	304
5	characters	1	p01	1	100	100
5	characters	2	p02	2	100	202
5	characters	3	p03	3	100	304
5	mmr	1	p01	1	100	100
5	mmr	2	p02	2	100	202
5	mmr	3	p03	3	100	304
"""


@pytest.fixture
def data(tmp_path):
    """A private copy of the fixtures (tests may damage it)."""
    target = tmp_path / "in"
    shutil.copytree(DATA, target)
    return target


def args(data, out, log, *extra, vectors=True):
    base = ["budget", "run", "--corpus", data / "corpus.jsonl", "--run", data / "candidates.tsv",
            "--qrels", data / "qrels.txt", "--output", out, "--log", log]
    if vectors:
        base += ["--vectors", data / "vectors.npy", "--vector-ids", data / "vector_ids.txt"]
    return base + list(extra)


def test_budget_run_end_to_end(cli, data, tmp_path):
    out, log = tmp_path / "out", tmp_path / "log.jsonl"
    result = cli(*args(data, out, log))
    assert result.exit_code == 0, result.output
    assert "warning: 3 of 23 vectors" in result.stderr            # c, x and y are not unit length
    assert (out / "selections.tsv").read_text(encoding="utf-8") == EXPECTED_SELECTIONS
    assert sorted(p.name for p in out.iterdir()) == ["explanations.md", "manifest.json", "selections.tsv",
                                                     "summary.json"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["queries"] == 5 and summary["queries_with_positive_among_candidates"] == 4
    assert summary["positive_rule"] == "qrels grade > 0"
    sel = summary["selectors"]
    # Count: units 3+3+3+2+3 = 14; characters 2,910 + 904 + 1,801 + 2,703 + 304 = 8,622
    assert sel["count"]["mean_units"] == pytest.approx(14 / 5)
    assert sel["count"]["mean_characters"] == pytest.approx(8622 / 5)
    assert sel["count"]["max_characters"] == 2910
    assert sel["count"]["packets_over_char_cap"] == 3
    assert sel["count"]["content_cap"] is None
    assert (sel["count"]["positives_available"], sel["count"]["positives_selected"]) == (5, 3)
    assert (sel["count"]["positives_lost_never_fit"], sel["count"]["positives_lost_remaining_allowance"],
            sel["count"]["positives_lost_unit_cap"]) == (0, 0, 2)
    assert sel["count"]["queries_with_lost_positive"] == ["2", "5"]
    # Characters: units 1+3+2+0+3 = 9; characters 1,108 + 904 + 1,200 + 0 + 304 = 3,516
    assert sel["characters"]["mean_units"] == pytest.approx(9 / 5)
    assert sel["characters"]["mean_characters"] == pytest.approx(3516 / 5)
    assert sel["characters"]["max_characters"] == 1200
    assert sel["characters"]["empty_packets"] == 1 and sel["characters"]["packets_over_char_cap"] == 0
    assert (sel["characters"]["positives_available"], sel["characters"]["positives_selected"]) == (5, 1)
    assert (sel["characters"]["positives_lost_never_fit"], sel["characters"]["positives_lost_remaining_allowance"],
            sel["characters"]["positives_lost_unit_cap"]) == (1, 1, 2)
    assert sel["characters"]["queries_with_lost_positive"] == ["1337", "2", "3", "5"]
    assert sel["characters"]["queries_with_lost_positive_count"] == 4
    # MMR: same cost as Characters here, but takes c and d in query 2
    assert sel["mmr"]["mean_characters"] == pytest.approx(3516 / 5)
    assert (sel["mmr"]["positives_available"], sel["mmr"]["positives_selected"]) == (5, 2)
    assert (sel["mmr"]["positives_lost_never_fit"], sel["mmr"]["positives_lost_remaining_allowance"],
            sel["mmr"]["positives_lost_unit_cap"]) == (1, 1, 1)
    assert sel["mmr"]["queries_with_lost_positive"] == ["1337", "3", "5"]
    explanations = (out / "explanations.md").read_text(encoding="utf-8")
    assert ("- Characters: positive 5 at rank 2 has 1,298 characters, more than the 1,200-character "
            "allowance: skipped; 12 (1,108 characters) selected\n") in explanations
    assert ("- Characters: positive g at rank 2 has 599 characters, more than the 598 characters left of "
            "the 1,200-character allowance: skipped; e (600 characters), f (598 characters) selected "
            "(1,200 characters with separators)\n") in explanations
    assert ("- MMR: positive c at rank 3 (300 characters) selected; positive d at rank 4 (300 characters) "
            "selected; a (300 characters), c (300 characters), d (300 characters) selected "
            "(904 characters with separators)\n") in explanations
    manifest = json.loads((out / "manifest.json").read_text())
    params = manifest["parameters"]
    assert (params["depth"], params["unit_cap"], params["char_cap"], params["separator"]) == (10, 3, 1200, "\n\n")
    assert (params["relevance_weight"], params["redundancy_weight"]) == (0.7, 0.3)
    assert params["unit_text_rule"].startswith("title + LF + text when the title is non-empty")
    assert params["vectors"]["source"] == "file"
    assert set(manifest["inputs"]) == {"corpus", "run", "qrels", "vectors", "vector_ids"}
    (record,) = read_records(log)
    assert record["status"] == "ok" and record["command"] == "budget run"
    assert record["run_id"] == manifest["run_id"]
    assert record["results"]["summary"] == str((out / "summary.json").resolve())
    assert record["results"]["manifest"] == str((out / "manifest.json").resolve())
    assert len(record["inputs"]) == 5 and len(record["outputs"]) == 4
    # a re-run of the same inputs may replace its own output; the result files are byte-identical
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.name != "manifest.json"}
    assert cli(*args(data, out, log)).exit_code == 0
    assert before == {p.name: p.read_bytes() for p in out.iterdir() if p.name != "manifest.json"}


def test_sandbox_fields_depth_and_separator(cli, data, tmp_path):
    lines = (data / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    sandbox = []
    for line in lines:
        record = json.loads(line)
        record["doc_id"] = record.pop("_id")
        sandbox.append(json.dumps(record, ensure_ascii=False))
    (data / "corpus.jsonl").write_text("\n".join(sandbox) + "\n", encoding="utf-8")
    out = tmp_path / "sandbox"
    assert cli(*args(data, out, tmp_path / "log.jsonl")).exit_code == 0
    assert (out / "selections.tsv").read_text(encoding="utf-8") == EXPECTED_SELECTIONS
    # depth 3 drops d (query 2, rank 4) and p04 (query 5, rank 4) from the candidates
    out3 = tmp_path / "depth3"
    assert cli(*args(data, out3, tmp_path / "log.jsonl", "--depth", "3")).exit_code == 0
    summary = json.loads((out3 / "summary.json").read_text())
    assert summary["selectors"]["count"]["positives_available"] == 3
    ranks = [int(row.split("\t")[4]) for row in (out3 / "selections.tsv").read_text().splitlines()[1:]]
    assert max(ranks) == 3
    # a one-LF separator: e + 1 + g = 1,200 fits, so Characters keeps positive g in query 3
    out_sep = tmp_path / "sep"
    assert cli(*args(data, out_sep, tmp_path / "log.jsonl", "--separator", r"\n")).exit_code == 0
    rows = (out_sep / "selections.tsv").read_text().splitlines()
    assert [r for r in rows if r.startswith("3\tcharacters")] == ["3\tcharacters\t1\te\t1\t600\t600",
                                                                  "3\tcharacters\t2\tg\t2\t599\t1200"]
    assert json.loads((out_sep / "manifest.json").read_text())["parameters"]["separator"] == "\n"


def _damage(data, name, text):
    (data / name).write_text(text, encoding="utf-8")


def _drop_vector(data, doc):
    ids = (data / "vector_ids.txt").read_text().split()
    matrix = np.load(data / "vectors.npy")
    keep = [i for i, d in enumerate(ids) if d != doc]
    np.save(data / "vectors.npy", matrix[keep])
    (data / "vector_ids.txt").write_text("\n".join(ids[i] for i in keep) + "\n")


def _corpus_without(data, doc):
    lines = [line for line in (data / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
             if json.loads(line)["_id"] != doc]
    _damage(data, "corpus.jsonl", "\n".join(lines) + "\n")


def _zero_vector(data, doc):
    ids = (data / "vector_ids.txt").read_text().split()
    matrix = np.load(data / "vectors.npy")
    matrix[ids.index(doc)] = 0
    np.save(data / "vectors.npy", matrix)


BAD_INPUTS = [
    ("corpus missing a candidate", lambda d: _corpus_without(d, "f"), (),
     r"candidates.tsv:10: candidate 'f' of query '3' is not in the corpus"),
    ("vectors missing a candidate", lambda d: _drop_vector(d, "g"), (),
     r"candidates.tsv:9: candidate 'g' of query '3' has no vector in"),
    ("more ids than vectors", lambda d: _damage(d, "vector_ids.txt",
                                                (d / "vector_ids.txt").read_text() + "extra\n"), (),
     r"vectors.npy: holds 23 vectors but .*vector_ids.txt lists 24 ids"),
    ("3-D vectors", lambda d: np.save(d / "vectors.npy", np.ones((23, 2, 2), np.float32)), (),
     r"vectors.npy: vectors must be a 2-D array \(vectors x dimensions\), got shape \(23, 2, 2\)"),
    ("1-D vectors", lambda d: np.save(d / "vectors.npy", np.ones(23, np.float32)), (),
     r"vectors.npy: vectors must be a 2-D array"),
    ("zero-width vectors", lambda d: np.save(d / "vectors.npy", np.ones((23, 0), np.float32)), (),
     r"vectors.npy: vectors have dimension 0"),
    ("zero vector", lambda d: _zero_vector(d, "a"), (),
     r"vectors.npy: vector of 'a' \(row \d+\) is a zero vector"),
    ("not an npy file", lambda d: _damage(d, "vectors.npy", "not numpy"), (),
     r"vectors.npy: not a readable .npy array"),
    ("duplicate vector id", lambda d: _damage(d, "vector_ids.txt",
                                              (d / "vector_ids.txt").read_text().replace("p01\n", "p02\n")), (),
     r"vector_ids.txt:\d+: duplicate vector id 'p02'"),
    ("invalid corpus JSON", lambda d: _damage(d, "corpus.jsonl",
                                              (d / "corpus.jsonl").read_text(encoding="utf-8") + "{oops\n"), (),
     r"corpus.jsonl:24: invalid JSON"),
    ("duplicate corpus id", lambda d: _damage(d, "corpus.jsonl", (d / "corpus.jsonl").read_text(encoding="utf-8")
                                              + '{"_id": "a", "text": "again"}\n'), (),
     r"corpus.jsonl:24: duplicate document id 'a' \(first on line 4\)"),
    ("duplicate run row", lambda d: _damage(d, "candidates.tsv", (d / "candidates.tsv").read_text()
                                            + "2 Q0 a 9 0.5 dup\n"), (),
     r"candidates.tsv:25: document 'a' listed twice for topic '2'"),
    ("cap below separator", None, ("--char-cap", "1"), r"field 'char_cap': character cap 1 is smaller"),
    ("cap zero", None, ("--char-cap", "0"), r"field 'char_cap': character cap must be an integer > 0"),
    ("depth zero", None, ("--depth", "0"), r"field 'depth': depth must be an integer >= 1"),
    ("unit cap zero", None, ("--unit-cap", "0"), r"field 'unit_cap': unit cap must be an integer >= 1"),
    ("bad separator escape", None, ("--separator", r"\q"), r"field 'separator'"),
]


@pytest.mark.parametrize("name, damage, extra, pattern", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(cli, data, tmp_path, name, damage, extra, pattern):
    import re

    if damage is not None:
        damage(data)
    out, log = tmp_path / "out", tmp_path / "log.jsonl"
    result = cli(*args(data, out, log, *extra))
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match(r"^[^:]+(:\d+)?: .+", lines[0])   # FILE[:LINE]: message
    assert re.search(pattern, lines[0]), lines[0]
    assert not out.exists()
    assert not log.exists()                      # validation failures are not runs
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []


def test_vectors_without_ids_is_bad_input(cli, data, tmp_path):
    out = tmp_path / "out"
    result = cli(*args(data, out, tmp_path / "log.jsonl", "--vectors", data / "vectors.npy", vectors=False))
    assert result.exit_code == 2
    assert "--vectors and --vector-ids must be given together" in result.stderr
    assert not out.exists()


def test_output_directory_refusals(cli, data, tmp_path):
    log = tmp_path / "log.jsonl"
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    result = cli(*args(data, mine, log))
    assert result.exit_code == 3
    assert "holds no manifest.json" in result.stderr
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    out = tmp_path / "out"
    assert cli(*args(data, out, log)).exit_code == 0
    result = cli(*args(data, out, log, "--char-cap", "1300"))     # another run's output
    assert result.exit_code == 3
    assert "different inputs or parameters" in result.stderr
    assert json.loads((out / "summary.json").read_text())["accounting"]["char_cap"] == 1200
    assert [r["status"] for r in read_records(log)] == ["ok"]


def test_failure_mid_run_is_logged_and_leaves_nothing(data, tmp_path):
    class Broken:
        def describe(self):
            return {"model": "broken", "model_path": "/nowhere"}

        def encode(self, texts, progress=False):
            raise RuntimeError("encoder crashed")

    out, log = tmp_path / "out", tmp_path / "log.jsonl"
    with pytest.raises(RuntimeError, match="encoder crashed"):
        run_budget(corpus=data / "corpus.jsonl", run=data / "candidates.tsv", qrels=data / "qrels.txt",
                   output=out, log=log, encoder_factory=Broken)
    assert not out.exists()
    assert [p for p in tmp_path.iterdir() if p.name.startswith(".out")] == []
    (record,) = read_records(log)
    assert record["status"] == "failed" and record["error"] == "RuntimeError: encoder crashed"
    assert record["parameters"]["vectors"]["encoder"] == {"model": "broken"}   # paths kept out of the id


def test_library_call_matches_cli_summary(data, tmp_path):
    summary = run_budget(corpus=data / "corpus.jsonl", run=data / "candidates.tsv", qrels=data / "qrels.txt",
                         output=tmp_path / "lib", vectors=data / "vectors.npy",
                         vector_ids=data / "vector_ids.txt", params=BudgetParams(), warn=lambda m: None)
    assert summary["selectors"]["mmr"]["positives_selected"] == 2
    assert summary["selectors"]["characters"]["positives_selected"] == 1


def _encoder_available() -> bool:
    try:
        from engine.encoder.encode import EncoderConfig, load_encoder  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not _encoder_available(), reason="engine/encoder/encode.py not importable yet")
def test_budget_run_with_the_encoder(cli, data, tmp_path):
    out, log = tmp_path / "enc", tmp_path / "log.jsonl"
    result = cli(*args(data, out, log, vectors=False))
    assert result.exit_code == 0, result.output
    rows = (out / "selections.tsv").read_text(encoding="utf-8").splitlines()
    expected = EXPECTED_SELECTIONS.splitlines()
    # Count and Characters do not use vectors: identical to the supplied-vector run
    assert [r for r in rows if "\tmmr\t" not in r] == [r for r in expected if "\tmmr\t" not in r]
    # MMR packets forced by the allowance: 1337 -> [12], 3 -> [e, f], 4 -> []
    mmr = [r for r in rows if "\tmmr\t" in r]
    assert [r for r in mmr if r.startswith(("1337\t", "3\t", "4\t"))] == [
        "1337\tmmr\t1\t12\t1\t1108\t1108", "3\tmmr\t1\te\t1\t600\t600", "3\tmmr\t2\tf\t3\t598\t1200"]
    assert sum(1 for r in mmr if r.startswith("2\t")) == 3
    manifest = json.loads((out / "manifest.json").read_text())
    vectors = manifest["parameters"]["vectors"]
    assert vectors["source"] == "encoder"
    assert vectors["encoder"]["dimension"] == 384
    assert not any(key.endswith("_path") for key in vectors["encoder"])
    assert manifest["encoder"]["model"] == vectors["encoder"]["model"]
    assert "vectors" not in manifest["inputs"]
    (record,) = read_records(log)
    assert record["status"] == "ok"


def test_encoder_settings_reach_the_manifest(cli, data, tmp_path):
    """Without --vectors the encoder's batch and thread settings are options, recorded in the manifest."""
    out = tmp_path / "enc-settings"
    result = cli(*args(data, out, tmp_path / "log.jsonl", vectors=False), "--batch-size", "4",
                 "--intra-op-threads", "2", "--inter-op-threads", "1")
    assert result.exit_code == 0, result.output
    encoder = json.loads((out / "manifest.json").read_text())["parameters"]["vectors"]["encoder"]
    assert (encoder["batch_size"], encoder["intra_op_threads"], encoder["inter_op_threads"]) == (4, 2, 1)
    assert encoder["max_wordpieces"] == 256
