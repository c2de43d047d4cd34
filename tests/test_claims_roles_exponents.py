"""Issue 19, fault campaign leftovers: scientific notation read whole, role targets that are never
quantities, citation roles as attributions crediting the cited key, and glued units on a
d2l-shaped page. Our own sentences; every expected value worked out by hand."""

from __future__ import annotations

import json

import pytest

from claims.attribution import credits
from claims.extract import extract_claims
from claims.quantities import find_quantities


@pytest.mark.parametrize("text, printed, value, exponent, decimals", [
    ("a learning rate of 2e-5.", "2e-5", 2e-5, -5, 0),
    ("We decay it to 1e-3, then stop.", "1e-3", 1e-3, -3, 0),
    ("The run lasts 2.5E+4.", "2.5E+4", 2.5e4, 4, 1),
    ("We stop after 3×10^4.", "3×10^4", 3e4, 4, 0),
    ("We stop after 3 × 10⁴.", "3 × 10⁴", 3e4, 4, 0),
    ("The rate is 3·10^-4.", "3·10^-4", 3e-4, -4, 0),
    ("The rate is 3 × 10⁻⁴ here.", "3 × 10⁻⁴", 3e-4, -4, 0),
    ("The rate is 1.5 x 10^−2!", "1.5 x 10^−2", 1.5e-2, -2, 1),
    ("A shift of -3e-2.", "-3e-2", -3e-2, -2, 0),
    ("It takes 10⁴ steps.", "10⁴ steps", 1e4, 4, 0),
    ("The tolerance is 10^-3.", "10^-3", 1e-3, -3, 0),
])
def test_scientific_notation_is_one_number_with_its_exponent(text, printed, value, exponent, decimals):
    (q,) = find_quantities(text)
    assert (q.text, q.exponent, q.decimals) == (printed, exponent, decimals)
    assert q.value == pytest.approx(value, rel=1e-12)
    assert text[q.span[0]:q.span[1]] == printed


def test_two_exponents_in_one_sentence_and_a_unit_after():
    qs = find_quantities("We tried 2e-5 and 1e-4 with 2.5E+4 steps.")
    assert [(q.text, q.exponent, q.unit) for q in qs] == [("2e-5", -5, None), ("1e-4", -4, None),
                                                          ("2.5E+4 steps", 4, "steps")]


@pytest.mark.parametrize("text", [
    "The curve is in {numref}`fig-1`.",
    "See {numref}`1` and {eq}`2`.",
    "See :numref:`Figure 2 <fig-2>` for the curve.",
    "As in :ref:`2`, we go on.",
    "As in {ref}`section 3 <sec-3>`, we go on.",
    "The loss :eqref:`eq_4` is convex.",
    ":label:`eq3` gives the loss.",
    "It follows {cite}`smith2020` and {cite:p}`doe2019`.",
    "It follows :cite:`Doe.2019`.",
    "It follows [@smith2020; @doe2019, p. 12].",
    "See {doc}`part 2 <chapter2>` first.",
])
def test_role_targets_are_never_quantities(text):
    assert find_quantities(text) == []


def test_inline_code_braces_are_no_role():
    # `{n}` is inline code, not a MyST role: the number between the code spans stays
    assert [q.text for q in find_quantities("Set `{n}` to 5 and `k` to 2.")] == ["5", "2"]


def test_a_result_beside_a_role_keeps_its_own_number():
    qs = find_quantities("Accuracy reaches 91.2% in {numref}`fig-3` after 2 epochs.")
    assert [q.text for q in qs] == ["91.2%", "2 epochs"]


@pytest.mark.parametrize("sentence, names", [
    ("As shown by :citet:`Bridle.1990`, the softmax is smooth.", ("Bridle 1990",)),
    ("The softmax is smooth :cite:`Bridle.1990,Peters.Neumann.Iyyer.ea.2018`.", ("Bridle 1990", "Peters 2018")),
    ("The softmax is smooth {cite}`kaplan2020scaling`.", ("kaplan 2020",)),
    ("The softmax is smooth {cite:t}`Bridle.1990`.", ("Bridle 1990",)),
    ("The softmax is smooth {cite:p}`bridle1990`.", ("bridle 1990",)),
    ("The softmax is smooth [@bridle1990].", ("bridle 1990",)),
    ("The softmax is smooth [see @bridle1990, p. 3; @doe2019].", ("bridle 1990", "doe 2019")),
    ("The softmax is smooth :cite:`Goodfellow.Bengio.Courville.2016`.", ("Goodfellow 2016",)),
    ("The softmax is smooth :cite:`gpt-paper`.", ("gpt-paper",)),
])
def test_citation_roles_credit_the_cited_key(sentence, names):
    credit = credits(sentence)
    assert credit is not None and credit.names == names and credit.cue == "citation role"


def test_an_email_address_is_no_citation():
    assert credits("Write to [team@example.org] for the data.") is None


D2L_PAGE = """# Softmax Regression
:label:`sec_softmax`

As shown by :citet:`Bridle.1990`, the softmax is a smooth approximation of the argmax.

Training takes 5GB of memory and 41M parameters.

:begin_tab:`pytorch`
We trained with a learning rate of 2e-5.
:end_tab:

The loss is plotted in :numref:`fig_softmax` and {numref}`fig-1`.
"""


def test_a_d2l_page_reads_citations_glued_units_and_exponents(tmp_path, cli):
    page = tmp_path / "page.md"
    page.write_text(D2L_PAGE, encoding="utf-8")
    result = cli("claims", page, "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)  # stderr holds the note on who decided the kinds
    rows = rows["claims"] if isinstance(rows, dict) else rows
    by_text = {r["text"]: r for r in rows}
    first = by_text["As shown by :citet:`Bridle.1990`, the softmax is a smooth approximation of the argmax."]
    assert (first["kind"], first["cited_names"]) == ("attribution", ["Bridle 1990"])
    sizes = by_text["Training takes 5GB of memory and 41M parameters."]
    assert [(q["text"], q["value"], q["unit"]) for q in sizes["quantities"]] == [("5GB", 5.0, "GB"), ("41M", 41.0, "M")]
    rate = by_text["We trained with a learning rate of 2e-5."]
    assert [(q["text"], q["exponent"]) for q in rate["quantities"]] == [("2e-5", -5)]
    plot = by_text["The loss is plotted in :numref:`fig_softmax` and {numref}`fig-1`."]
    assert plot["quantities"] == []


def test_flattened_text_reads_the_same_quantities():
    rows = extract_claims("Training takes 5GB of memory and 41M parameters. See {eq}`1`.")
    assert [[q.text for q in r.quantities] for r in rows] == [["5GB", "41M"], []]


def test_a_citation_role_on_a_wrapped_d2l_line_stays_in_its_sentence():
    # d2l wraps one clause per line: the role line continues the sentence, a :label: line does not
    text = ("# Softmax\n:label:`sec_softmax`\n\nTraining takes 5GB of memory and 41M parameters\n"
            ":cite:`Bridle.1990`.\n:label:`fig_x`\n")
    rows = extract_claims(text, "block")
    assert [(r.text, r.cited_names, r.kind) for r in rows] == [
        ("Training takes 5GB of memory and 41M parameters :cite:`Bridle.1990`.", ["Bridle 1990"],
         "measured result")]


@pytest.mark.parametrize("sentence, kind", [
    # the metric word is inside the cited key: no measurement cue, the citation makes it an attribution
    ("The step size is 2e-5 :cite:`Smith.accuracy.2020`.", "attribution"),
    ("We train for 3 runs, see {numref}`fig-accuracy-gain`.", "method or definition"),
    # the same number with a real metric word outside the role is a measured result
    ("Accuracy reaches 91.2% :cite:`Smith.2020`.", "measured result"),
])
def test_role_targets_give_no_kind_cue(sentence, kind):
    (row,) = extract_claims(sentence)
    assert row.kind == kind
