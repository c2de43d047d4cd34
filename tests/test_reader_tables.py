"""Table keys from every label column, <br> in cells, two-level headers, names with digits; the
consistency side effects of keeping the line under a table; overflowing numbers are bad input."""

from __future__ import annotations

from audit.document import read_markdown
from claims.extract import TABLE_VALUE, extract_claims, is_name_cell, label_columns


def values(text: str) -> list[str]:
    return [r.text for r in extract_claims(text, "block") if r.kind == TABLE_VALUE]


def test_repeated_first_cells_join_every_label_column():
    text = ("| Dataset | Model | nDCG@10 |\n|---|---|---|\n| NQ | BM25 | 0.329 |\n| | e5-base-v2 | 0.474 |\n"
            "| FiQA | BM25 | 0.236 |\n| | e5-base-v2 | 0.398 |\n")
    assert values(text) == ["T-1 · NQ / BM25 · nDCG@10 = 0.329", "T-1 · NQ / e5-base-v2 · nDCG@10 = 0.474",
                            "T-1 · FiQA / BM25 · nDCG@10 = 0.236", "T-1 · FiQA / e5-base-v2 · nDCG@10 = 0.398"]


def test_unique_first_cells_keep_the_short_key():
    text = "| Topic | Relevant | Recall@3 |\n|---|---|---|\n| T-01 | D-001, D-002 | 1.000000 |\n"
    assert values(text) == ["T-1 · T-01 · Recall@3 = 1.000000"]   # the W03 keys stay as bound


def test_names_with_digits_are_names_not_values():
    for name in ("e5-base-v2", "text-embedding-3-small", "nDCG@10", "GPT-4", "bge-m3", "D-001, D-002"):
        assert is_name_cell(name), name
    for value in ("0.5", "3 [2, 4]", "Llama 3 8B", "−0.0878 [-0.1407, -0.0354]"):
        assert not is_name_cell(value), value
    text = ("| Rank | Model | Metric | Score |\n|---|---|---|---|\n| 1 | text-embedding-3-small | nDCG@10 | 0.512 |\n"
            "| 2 | e5-base-v2 | nDCG@10 | 0.468 |\n")
    (table,) = read_markdown(text).tables()
    assert label_columns(table) == 3   # the first column, then the columns of names: Model, Metric
    assert values(text) == ["T-1 · 1 · Score = 0.512", "T-1 · 2 · Score = 0.468"]


def test_br_in_a_cell_is_a_line_break_never_printed_escaped():
    text = "| Model | Score |\n|---|---|\n| MiniLM<br>L6 | 0.421<br/>(±0.004) |\n"
    (table,) = read_markdown(text).tables()
    assert table.rows == (("MiniLM\nL6", "0.421\n(±0.004)"),)
    assert values(text) == ["T-1 · MiniLM L6 · Score = 0.421 (±0.004)"]


def test_a_two_level_header_names_group_and_column():
    text = ("| Model | MS MARCO | | NQ | |\n|---|---|---|---|---|\n| | MRR@10 | R@1k | nDCG@10 | R@100 |\n"
            "| BM25 | 0.184 | 0.853 | 0.329 | 0.760 |\n")
    assert values(text) == ["T-1 · BM25 · MS MARCO › MRR@10 = 0.184", "T-1 · BM25 · MS MARCO › R@1k = 0.853",
                            "T-1 · BM25 · NQ › nDCG@10 = 0.329", "T-1 · BM25 · NQ › R@100 = 0.760"]


PAGE = """# Results

Retrieval quality on NQ:

| Model | nDCG@10 | Recall@100 |
|---|---|---|
| BM25 | 0.329 | 0.760 |
| Dense | 0.474 | 0.880 |
| Average | 0.4015 | 0.820 |
Dense reaches an nDCG@10 of {value} on NQ.
"""


def test_a_wrong_number_directly_under_a_table_fails_consistency(tmp_path, cli):
    page = tmp_path / "page.md"
    page.write_text(PAGE.format(value="0.484"), encoding="utf-8")
    result = cli("consistency", page)   # before issue 19 the sentence was a table row: exit 0
    assert result.exit_code == 1
    # 'Retrieval quality on NQ:' is a title line (label convention (h)), so the sentence is paragraph 1
    assert ("FAIL prose: [C-001-01] paragraph 1, sentence 1 (line 10): '0.484' vs 0.474 at table 1 (line 5) "
            "in § Results, row 'Dense' × column 'nDCG@10', line 8") in result.output
    page.write_text(PAGE.format(value="0.474"), encoding="utf-8")
    result = cli("consistency", page)
    assert result.exit_code == 0 and "kind prose: 1 pass, 0 fail, 0 skip" in result.output


def test_an_overflowing_number_is_bad_input_naming_its_line(tmp_path, cli):
    page = tmp_path / "page.md"
    page.write_text("# R\n\n| Model | nDCG@10 |\n|---|---|\n| BM25 | 0.3 |\n| Dense | 1e309 |\n\nText here.\n",
                    encoding="utf-8")
    for command in ("claims", "consistency"):
        result = cli(command, page)
        assert result.exit_code == 2, command
        assert result.output.strip().splitlines() == [
            f"{page}:6: number '1e309' is too large for a float; write it as a finite value"]
    page.write_text("# R\n\nThe run took " + "9" * 400 + " seconds.\n", encoding="utf-8")
    result = cli("claims", page)
    assert result.exit_code == 2 and result.output.startswith(f"{page}:3: number '99999")


def test_a_br_label_is_named_on_one_line_by_consistency(tmp_path, cli):
    page = tmp_path / "br.md"
    page.write_text("# R\n\n| Model | nDCG@10 |\n|---|---|\n| MiniLM<br>L6 | 0.30 |\n| Dense<br>base | 0.50 |\n"
                    "MiniLM L6 reaches an nDCG@10 of 0.35 here.\n", encoding="utf-8")
    result = cli("consistency", page)
    assert result.exit_code == 1
    assert ("FAIL prose: [C-001-01] paragraph 1, sentence 1 (line 7): '0.35' vs 0.30 at table 1 (line 3) in § R, "
            "row 'MiniLM L6' × column 'nDCG@10', line 5") in result.output
