"""The trained measured-result classifier: is this number a measured result? (issue 19, item 4).

The default of the commands authors run (``claims``, ``report``, ``book``:
:data:`claims.kinds.DEFAULT_KINDS`), chosen in the library with ``kinds="model"``
(``extract_claims(..., kinds="model")``); the rules of :mod:`claims.kinds` /
:func:`claims.extract.classify` stay the library functions' default, ``--kinds rules`` on the
commands, and what ``bind`` always uses. It decides **per number**, because the labels of the corpus
(``tests/data/corpus/*.labels.toml``) say for every number whether it is a result, so each
sentence gives one training case per number, and the decision lands on the number the report
binds; a sentence is a measured result when any of its numbers is.

Model: L2-regularised logistic regression, p = 1 / (1 + exp(−z)) (e.g. Hastie, Tibshirani and
Friedman, *The Elements of Statistical Learning*, 2nd ed., §4.4), z = w·x + Σ_b w_b·m_b, over
two kinds of input of one number in its sentence:

1. a binary feature vector x, hashed into :data:`DIMENSION` buckets (the "hashing trick",
   Weinberger et al., ICML 2009) by CRC-32 (bucket 0 is the bias), in two groups each scaled to
   unit L2 norm (:func:`vector`). Features (:func:`number_features`), all strings before hashing:

   * n-grams: the sentence's words and word bigrams (lower-cased, every digit run written ``0``);
     the 1st/2nd/3rd word before the number and the 1st/2nd after it by position, the bag of 6
     words before and 4 after, character 3-grams of the 16 characters on each side with the
     number's shape in the middle;
   * structure: the number's shape (``0.0%``, ``0x``, ``0ms``), unit, decimals, percent,
     multiplier, range, ``±``, ratio, year-like (an integer 1900–2099), version-like (``v1.2``,
     ``1.2.3``, after "version"/"python"), flag (after ``--``), glued unit (a letter right after
     the digits), inside parentheses, order of magnitude, position in the sentence, number of
     numbers; a question, a modal or hedge word, an imperative start, a list marker, a
     comparative, first and second person;
   * with ``features`` = ``"shapes"``, also the shapes of :func:`shape_features`, which
     generalise over words: the unit's class (time, rate, memory, K/M/B scale), "k of N",
     approximate, a result verb or a settings word before, assigned with ``=``, a metric name
     near, a confidence level, arXiv-like, spelled out; with ``"context"`` (shipped) also
     :func:`context_features` (modality, hypotheticals, data and model sizes, targets,
     specifications, settings verbs, versions, hardware);
   * optionally (``features`` = ``"roles"`` or ``"rules"``) the rules' role of the number
     (:func:`claims.kinds.refine_roles`) and, for ``"rules"``, the rules' decision for the
     sentence, their call on this number and their veto (:func:`claims.kinds.not_measured`) — the
     model then inherits the rules' coupling and their in-sample optimism;

   ``ngrams`` in the weights file says whether the n-gram group is read (true, false, or the
   prefixes kept);
2. optional MiniLM blocks m_b (all-MiniLM-L6-v2, the pinned model of :mod:`engine.encoder`, on
   onnxruntime with 1 intra-op thread: deterministic): ``window``, the vector of the number with
   the 8 words before and after it as written (:func:`window_text`), and ``sentence``, the vector
   of its sentence. :meth:`KindsModel.scores` takes them precomputed; :func:`relabel` encodes
   every row's texts in one batched call.

**Shipped** (``claims/kinds_model.json``, design ``context+own`` of ``bench/kinds_candidates.py``,
stop 28): both hashed groups with the ``context`` features (``shapes`` plus
:func:`context_features`), no MiniLM, no rule output, trained on the development part of the
corpus and our own labelled sentences (``tests/data/kinds_training/own.labels.toml``); it
replaced ``shapes+own`` (stop 27), which had replaced ``plain``, each after winning out of sample
(docs/audit.md). The candidates with MiniLM blocks
(best: ``structure+window``, the structural group plus the window vector) tied with ``plain`` out
of sample and cost an encoder call per number. A weights file with a
MiniLM block makes ``--kinds model`` need the model package (as ``encode`` does; without it one
line and exit 2); the rules path never imports onnxruntime.

The weights (``claims/kinds_model.json``, package data: dimension, feature set, n-grams, the
MiniLM blocks' 384 weights, threshold, λ, the non-zero hashed weights) are written by
``bench/train_kinds_model.py`` from the development part of the corpus only, deterministically,
and pinned here by :data:`WEIGHTS_SHA256`: a file with another hash is refused
(:class:`RefusalError`, one line). A number is a result when p ≥ the stored threshold.
"""

from __future__ import annotations

import json
import math
import re
import zlib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from claims.kinds import MEASURED, METRIC_NAMES, RESULT_ROLES, TABLE_VALUE, not_measured
from claims.quantities import Quantity
from engine.runs.errors import InputError, RefusalError
from engine.runs.hashing import sha256_file

WEIGHTS = Path(__file__).resolve().parent / "kinds_model.json"
WEIGHTS_SHA256 = "02058c2b4ce3c0901d66811c57b4873902d3d541f4dcad532232222d1316c06d"
"""sha256 of :data:`WEIGHTS`; ``bench/train_kinds_model.py`` rewrites this line when it retrains."""
DIMENSION = 1 << 18
MINILM_DIMENSION = 384
WINDOW_WORDS = 8
MINILM_BLOCKS = ("sentence", "window")
FEATURE_SETS = ("plain", "roles", "rules", "shapes", "shapes+roles", "context", "context+roles", "cues")
"""``plain``: n-grams and structure; ``shapes``: plus :func:`shape_features`; ``context``: plus
:func:`context_features` too; ``cues``: ``context`` plus :func:`cue_features` (stop 29); ``roles`` / ``shapes+roles`` / ``context+roles``: plus the rules' role of the number;
``rules``: plus the rules' decision (optimistic: the rules were tuned on the development part)."""

_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+(?:[.,]\d+)*|[^\w\s]")
_DIGITS = re.compile(r"\d+")
_HEDGES = frozenset("could would might may should can will expect expected likely probably perhaps "
                    "hope aim plan possibly potentially".split())
_IMPERATIVES = frozenset("use set run install add try make see check download pass call create choose "
                         "replace note let install load open start define import specify change go "
                         "click follow read keep put pick build".split())
_COMPARATIVES = frozenset("than more less fewer faster slower better worse higher lower larger smaller "
                          "bigger cheaper outperforms beats".split())
_FIRST_PERSON = frozenset("we our us i my ours".split())
_SECOND_PERSON = frozenset("you your yours".split())
_VERSION_BEFORE = re.compile(r"(?:\bv|\bversion\s|\bpython\s|\brelease\s)$", re.I)


def _word(token: str) -> str:
    return _DIGITS.sub("0", token)


def _words(text: str) -> list[str]:
    return list(_cached_words(text))


@lru_cache(maxsize=1 << 14)
def _cached_words(text: str) -> tuple[str, ...]:
    """The lower-cased tokens of ``text`` with digit runs as ``0`` (cached: the feature functions
    read the same sentence, clause and neighbourhood of a number several times)."""
    return tuple(_word(t) for t in _TOKEN.findall(text.lower()))


def shape(text: str) -> str:
    """The number as written with every digit run replaced by ``0`` (``12.5ms`` → ``0.0ms``)."""
    return _DIGITS.sub("0", text.lower())


def sentence_features(sentence: str, quantities: list[Quantity]) -> list[str]:
    """Features of the sentence shared by all its numbers (module docstring)."""
    words = _words(sentence)
    out = [f"w:{w}" for w in words] + [f"b:{a}_{b}" for a, b in zip(words, words[1:])]
    stripped = sentence.strip()
    if stripped.rstrip("\"'”’)]").endswith("?"):
        out.append("s:question")
    bag = set(words)
    if bag & _HEDGES:
        out.append("s:hedge")
    if "up to" in sentence.lower():
        out.append("s:up-to")
    if words and words[0] in _IMPERATIVES:
        out.append("s:imperative")
    if re.match(r"^\s*(?:\(?\d{1,2}[.)]|[-*\u2022])\s", sentence):
        out.append("s:list-marker")
    if bag & _COMPARATIVES:
        out.append("s:comparative")
    if bag & _FIRST_PERSON:
        out.append("s:first-person")
    if bag & _SECOND_PERSON:
        out.append("s:second-person")
    out.append(f"s:numbers:{min(len(quantities), 5)}")
    return out


def number_features(sentence: str, q: Quantity, shared: list[str], features: str = "plain",
                    rules_measured: bool = False) -> list[str]:
    """Feature strings of one number ``q`` (span in ``sentence``) plus the ``shared`` ones."""
    start, end = q.span
    before, after = sentence[:start], sentence[end:]
    left, right = _words(before)[-6:], _words(after)[:4]
    out = list(shared)
    for i, w in enumerate(reversed(left[-3:]), start=1):
        out.append(f"L{i}:{w}")
    for i, w in enumerate(right[:2], start=1):
        out.append(f"R{i}:{w}")
    out += [f"L:{w}" for w in left] + [f"R:{w}" for w in right]
    window = _word(before[-16:].lower()) + "#" + shape(q.text) + "#" + _word(after[:16].lower())
    out += [f"c:{window[i:i + 3]}" for i in range(len(window) - 2)]
    out.append(f"n:shape:{shape(q.text)}")
    out.append(f"n:unit:{q.unit}")
    out.append(f"n:decimals:{min(q.decimals, 3)}")
    for flag, name in ((q.is_percent, "percent"), (q.is_multiplier, "multiplier"), (q.upper is not None, "range"),
                       (q.plus_minus, "plus-minus"), (q.denominator is not None, "ratio"),
                       (q.is_p_value, "p-value"), (q.currency is not None, "currency")):
        if flag:
            out.append(f"n:{name}")
    if (q.decimals == 0 and q.unit is None and not q.is_percent and q.upper is None
            and 1900 <= q.value <= 2099):
        out.append("n:year-like")
    if _VERSION_BEFORE.search(before) or re.match(r"^\.\d", after) or re.search(r"\d\.\d+\.\d", q.text):
        out.append("n:version-like")
    if re.search(r"--[\w-]+[\s=]$", before):
        out.append("n:flag")
    if after[:1].isalpha() or re.search(r"\d[A-Za-z]", q.text):
        out.append("n:glued")
    if before.count("(") > before.count(")"):
        out.append("n:in-parentheses")
    magnitude = math.floor(math.log10(abs(q.value))) if q.value else -99
    out.append(f"n:magnitude:{max(min(magnitude, 6), -3)}")
    out.append(f"n:position:{min(int(4 * start / max(len(sentence), 1)), 3)}")
    if features in ("shapes", "shapes+roles", "context", "context+roles", "cues"):
        out += shape_features(sentence, q)
    if features in ("context", "context+roles", "cues"):
        out += context_features(sentence, q)
    if features == "cues":
        out += cue_features(sentence, q)
    if features in ("roles", "rules", "shapes+roles", "context+roles"):
        out.append(f"r:role:{q.role}")
    if features == "rules":
        decision = "measured" if rules_measured else "other"
        out.append(f"r:rules:{decision}")
        out.append(f"r:call:{q.role}:{decision}")  # the rules' call on this very number
        veto = not_measured(sentence)
        if veto:
            out.append(f"r:veto:{veto.split(chr(39))[0].split(chr(34))[0].strip()}")
    return out


_UNIT_CLASSES = (
    ("time", re.compile(r"^(?:s|ms|us|µs|μs|ns|secs?|seconds?|milliseconds?|microseconds?|mins?|minutes?|h|hrs?|"
                        r"hours?|days?|weeks?|months?)$", re.I)),
    ("memory", re.compile(r"^(?:[kmgtp]i?bs?|bytes?|[kmgt]bytes|kilobytes?|megabytes?|gigabytes?|terabytes?)$", re.I)),
    ("scale", re.compile(r"^(?:k|m|b|bn|t|thousand|million|billion|trillion)$", re.I)),
)
_RATE_AFTER = re.compile(r"^\s*(?:[a-z]+\s*)?(?:/\s*(?:s|sec|second)\b|per\s+(?:second|sec|minute|hour|day|query|request)\b|"
                         r"qps\b|rps\b|tps\b|fps\b|toks?/s|tokens?/s|it/s|daily\b|a\s+second\b)", re.I)
_UNIT_AFTER = re.compile(r"^\s*([a-zµμ]+)\b", re.I)
_OF_TOTAL_AFTER = re.compile(r"^\s+(?:out\s+)?of\s+(?:(?:the|all|these|those)\s+)?(?:\d|(?:them|these|those)\b)", re.I)
_OF_TOTAL_BEFORE = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:out\s+)?of\s+(?:the\s+|all\s+)?$",
                              re.I)
_APPROX_BEFORE = re.compile(r"(?:~|≈|\b(?:about|around|roughly|approximately|approx\.?|almost|nearly|just|"
                            r"under|over|only|barely|a\s+whopping)\s+)$", re.I)
_RESULT_VERBS = frozenset(
    "reach reaches reached reaching achieve achieves achieved achieving obtain obtains obtained get gets got getting "
    "score scores scored scoring take takes took taking require requires required need needs needed handle handles "
    "handled improve improves improved improving outperform outperforms outperformed drop drops dropped fall falls "
    "fell rise rises rose gain gains gained yield yields yielded give gives gave hit hits measure measured clocking "
    "clocks serve serves served process processes processed deliver delivers delivered retain retains retained "
    "match matches matched beat beats lose loses lost recover recovers recovered cut cuts went go goes finished "
    "finishes ran runs peaked averaged saw see observe observed found find shows showed shown attains attained "
    "boost boosts boosted increase increases increased decrease decreases decreased reduce reduces reduced".split())
_SETTING_WORDS = frozenset(
    "setting settings default defaults ratio rate temperature threshold dimension dimensions dim "
    "parameter parameters learning lr batch epochs epoch steps seed warmup alpha beta lambda k1 "
    "configured configure assign assigns".split())
"""Words of settings; not "set", "top", "size", "window", "limit" or "budget", which name results as
often ("the dense set's 3/4 coverage", "the dense top five covers 2/4")."""
_ARXIV = re.compile(r"^\d{4}\.\d{4,5}$")
_METRICS = METRIC_NAMES | frozenset("qps rps tps speed memory wer cer em mae rmse auroc mteb mse ppl".split())
_CONFIDENCE = re.compile(r"\b(?:ci|confidence|credible)\b", re.I)


def shape_features(sentence: str, q: Quantity) -> list[str]:
    """Structural features of the ``shapes`` set (issue 19): shapes the hashed words miss because
    they generalise over words — the unit's class (a time, a rate per second, a memory size, a
    K/M/B scale, from the quantity's unit or the word after it), "k of N" (either side), an
    approximate value (``~``, "about", "almost"), a result verb within the four words before or a
    settings word within the six, a value assigned with ``=``, a metric name within
    the four words before or the two after, a confidence level (``CI 95%``), an arXiv-like identifier, a spelled-out
    number."""
    start, end = q.span
    before, after = sentence[:start], sentence[end:]
    out = []
    unit = q.unit or ""
    if not unit:
        match = _UNIT_AFTER.match(after)
        unit = match.group(1) if match else ""
    classes = [name for name, pattern in _UNIT_CLASSES if pattern.match(unit)]
    if _RATE_AFTER.match(after) or re.search(r"/s$|(?i:fps|qps|rps)$", q.text):
        classes.append("rate")
    out += [f"n:uclass:{c}" for c in classes]
    if _OF_TOTAL_AFTER.match(after):
        out.append("n:k-of-n")
    if _OF_TOTAL_BEFORE.search(before):
        out.append("n:of-total")
    if _APPROX_BEFORE.search(before):
        out.append("n:approx")
    left = _words(before)[-6:]
    if set(left[-4:]) & _RESULT_VERBS:
        out.append("n:after-result-verb")
    if set(left) & _SETTING_WORDS:
        out.append("n:after-setting-word")
    if re.search(r"=\s*$", before):
        out.append("n:assigned")
    if (set(left[-4:]) | set(_words(after)[:2])) & _METRICS:
        out.append("n:metric-near")
    if q.is_percent and _CONFIDENCE.search(before[-12:] + " " + after[:14]):
        out.append("n:confidence-level")
    if _ARXIV.match(q.text):
        out.append("n:arxiv-like")
    if not q.text[:1].isdigit() and not q.text[:1] in "~±$.-+":
        out.append("n:spelled")
    return out


_CLAUSE_BREAK = re.compile(r"[;:()\[\]]|\s[—–-]\s|,\s+(?:but|while|whereas|and)\s|\.\s")
_MODALS = {"will": "will", "'ll": "will", "shall": "will", "can": "can", "cannot": "can",
           "could": "speculative", "would": "speculative", "might": "speculative", "may": "speculative",
           "should": "speculative"}
_HYPOTHETICAL = re.compile(r"\b(?:if|suppose|supposing|imagine|assuming|assume|hypothetically|in\s+theory|"
                           r"theoretically)\b", re.I)
_EXAMPLE = re.compile(r"\b(?:for\s+example|for\s+instance|e\.g\.|say)\b", re.I)
_ESTIMATE_BEFORE = re.compile(r"\b(?:expected|estimated|predicted|projected|ideal|perfect|optimal|theoretical)\b", re.I)
_TO_TARGET_BEFORE = re.compile(r"(?:\btrain\w*\b[^.;:()]{0,50}?|\b(?:seconds?|minutes?|hours?|days?|steps?|epochs?|"
                               r"tokens?)\s+)to\s+(?:reach\s+|hit\s+|a\s+|an\s+)?[~≈]?$", re.I)
_DATA_WORDS = frozenset("data dataset datasets corpus corpora pre-training pretraining pre-trained pretrained "
                        "labelled labeled annotated unlabelled unlabeled transcribed training".split())
_TRAINED_ON = re.compile(r"\b(?:(?:(?:pre-?)?train(?:ed|s)?|fine-?tun(?:ed|es)|distill(?:ed|s)|learn(?:ed|t|s))\s+"
                         r"(?:\w+\s+){0,2}?(?:on|with|from)|scal(?:ed|ing)\s+(?:up\s+)?to)\s+(?:[\w-]+\s+){0,3}$", re.I)
_PARAM_AFTER = re.compile(r"^[\s-]*(?:parameters?|params?|weights)\b", re.I)
_PROPERTY_WORDS = frozenset("parameter parameters params computation flops compute".split())
_TARGET_WORDS = frozenset("target targets goal goals budget timeout deadline quota cap theoretical nominal "
                          "rated tdp spec specification specs advertised".split())
_SETTING_VERBS = frozenset("mask masks masked masking sample samples sampled sampling use uses using set sets "
                           "choose chose chosen select selects selected truncate truncated pad padded keep keeps "
                           "increase decrease reduce".split())
_CLAIM_WORDS = frozenset("claim claims claimed support supports supported supporting advertise advertises promise "
                         "promises allow allows accept accepts".split())
_COMPARATIVE_AFTER = re.compile(r"^\s*(?:[\w/%-]+\s+){0,2}?(?:faster|slower|quicker|more|less|fewer|higher|lower|"
                                r"better|worse|smaller|larger|bigger|cheaper|longer|shorter)\b", re.I)
_VERSION_WORDS = frozenset("version versions python pytorch torch cuda cudnn node java gcc ubuntu debian release "
                           "releases tensorflow numpy transformers".split())
_VERSION_AFTER = re.compile(r"^(?:\+|\.x\b|\s+or\s+(?:higher|later|newer|above|greater))", re.I)
_HARDWARE_WORDS = frozenset("gpu gpus cpu cpus vcpus core cores node nodes laptop laptops machine machines instance "
                            "instances server servers tpu tpus ram vram ghz".split())
_KEY_PREFIX = re.compile(r"^\s*[`*]*[a-z_][\w-]*(?:[._][\w-]+)+[`*]*\s*:\s")
_LABEL_THEN_VERB = re.compile(r"^\s*[^:]{1,40}:\s*([a-z]+)")


def context_features(sentence: str, q: Quantity) -> list[str]:
    """Features of the ``context`` set (stop 28, read off the errors of development batches 7 and
    8, each a shape that holds beyond one page; cases by hand in ``tests/test_kinds_model.py``):
    within the number's clause (from the last ``;``, ``:``, bracket, dash or ", but" before it),
    the modality that governs it — ``will``/``can`` (a run's expected duration or a capability:
    measured by the corpus conventions) against ``could``/``would``/``might``/``may``/``should``
    (speculation: not), each also with "up to" —, a hypothetical (``if``, ``suppose``) or an
    example marker (``for example``) before it; an estimate or ideal in its clause (``the expected
    proportion is``, ``perfect scaling would be``); a target reached by training or in a time
    (``training a network to 94%``, ``6.3 A100-seconds to 94%``); a word of data sizes near it (``hours of
    labelled data``) or a "trained on / scaled to" before it; a model size (``150M-parameter``)
    or a word of parameter counts and computation near it; a target or specification word
    before it (``target``, ``budget``, ``theoretical``); a settings verb right before it (``mask
    out 15%``, ``use 8 GPUs``); a claim or support verb before it (``claim to support 8k``); a
    comparative right after it (``31 fps faster``); "than" right before it; a time or memory unit
    within the two words after it (``4 GPU days``, ``6.3 A100-seconds``); a version's context
    (``Python 3.7+``, ``versions 3.6``, ``12.2 or higher``); a hardware word near it (``8 GPUs``,
    ``2.70GHz CPU``); a sentence that opens with a code-like key (``sample.fraction: …``) or with
    a label and an imperative."""
    start, end = q.span
    before, after = sentence[:start], sentence[end:]
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(before)]
    clause = before[breaks[-1]:] if breaks else before
    words = _words(clause)
    left = [w for w in _words(before) if w[:1].isalpha()][-10:]  # words only: no digits, no marks
    right = [w for w in _words(after) if w[:1].isalpha()][:5]
    out = []
    modal = next((_MODALS[w] for w in reversed(words[-8:]) if w in _MODALS), None)
    up_to = bool(re.search(r"\bup\s+to\s+(?:\S+\s+)?$", before, re.I))
    if modal:
        out.append(f"n:modal:{modal}")
        if up_to:
            out.append(f"n:modal:{modal}+up-to")
    if _HYPOTHETICAL.search(before):
        out.append("n:hypothetical-before")
    if _EXAMPLE.search(before):
        out.append("n:example-before")
    if _ESTIMATE_BEFORE.search(clause):
        out.append("n:estimate-before")
    if _TO_TARGET_BEFORE.search(before):
        out.append("n:to-target")
    if (set(left[-8:]) | set(right)) & _DATA_WORDS:
        out.append("n:data-near")
    if _TRAINED_ON.search(before[-60:]):
        out.append("n:trained-on")
    if _PARAM_AFTER.match(after) or (set(left[-3:]) | set(right[:3])) & _PROPERTY_WORDS:
        out.append("n:parameters-near")
    if set(left) & _TARGET_WORDS:
        out.append("n:after-target-word")
    if set(left[-3:]) & _SETTING_VERBS:
        out.append("n:after-setting-verb")
    if set(words[-6:]) & _CLAIM_WORDS:
        out.append("n:after-claim-verb")
    if _COMPARATIVE_AFTER.match(after):
        out.append("n:comparative-after")
    if left[-1:] == ["than"] or left[-2:-1] == ["than"]:
        out.append("n:after-than")
    near_units = set() if _RATE_AFTER.match(after) else {
        name for w in right[:2] for name, pattern in _UNIT_CLASSES[:2] if pattern.match(w)}
    out += [f"n:unit-near:{name}" for name in sorted(near_units)]
    if set(left[-3:]) & _VERSION_WORDS or _VERSION_AFTER.match(after):
        out.append("n:version-context")
    if (set(left[-4:]) | set(right[:3])) & _HARDWARE_WORDS:
        out.append("n:hardware-near")
    if _KEY_PREFIX.match(sentence):
        out.append("s:key-prefix")
    label = _LABEL_THEN_VERB.match(sentence)
    if label and label.group(1) in _IMPERATIVES | {"increase", "decrease", "reduce", "raise", "lower"}:
        out.append("s:label-imperative")
    return out


_ADVICE = re.compile(r"\b(?:rule\s+of\s+thumb|rough\s+guide|as\s+a\s+guide|guideline|suggests?|suggested|recommends?|"
                     r"recommended|recommendation|optimal|plan\s+for|avoid|best\s+practices?|advisable|ideally|"
                     r"typically|usually|in\s+general|generally)\b", re.I)
_EXPECT_BEFORE = re.compile(r"\b(?:expect|expects|expected|expecting|predict|predicts|predicted|hoped?|aim(?:s|ed)?|"
                            r"anticipated?|guess|guessing|planned|intend(?:ed)?)\b", re.I)
_AGO_AFTER = re.compile(r"^\s*(?:[a-z]+\s+)?ago\b", re.I)
_FOLD = re.compile(r"(?:-?fold|\s*times)$", re.I)
_FOLD_AFTER = re.compile(r"^(?:-fold|\s+fold|\s+times|×|x\b)", re.I)
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:about\s+|roughly\s+|~)?$", re.I)
_FROM_TO_BEFORE = re.compile(r"\bfrom\s+\S+\s+(?:\S+\s+)?to\s+(?:about\s+|roughly\s+|~|only\s+)?$", re.I)
_TO_AFTER = re.compile(r"^\s*(?:[a-z%]+\s+)?to\s+[~≈]?\d", re.I)
_CHANGE_WORDS = frozenset("increase increases increased decrease decreases decreased drop drops dropped reduce reduces "
                          "reduced rise rises rose fall falls fell grow grows grew grown improve improves improved "
                          "improving went go goes cut cuts lowered raised jumped shrank shrunk speedup slowdown "
                          "tripled doubled halved".split())
_OBSERVE = re.compile(r"\b(?:observed|measured|we\s+(?:got|get|saw|see|found|find|obtained|achieved|reached|measured)|"
                      r"in\s+our\s+(?:tests?|experiments?|benchmarks?|runs?|setup|measurements?)|results?\s+(?:show|are|is)|"
                      r"benchmark(?:ed|s)?|reported|turned\s+out)\b", re.I)
_SPEC_KEY_BEFORE = re.compile(r"\b(?:min|max|minimum|maximum|default|defaults\s+to|range)\s*[:=]?\s*$", re.I)
_METRIC_LABEL = re.compile(r"^\s*[*_`]*([A-Za-z][\w \-/()@]{0,40}?)[*_`]*\s*(?::|\bof|\bis|=)\s*[~≈]?$")
_RESULT_NOUNS = frozenset("throughput latency usage ratio time speed accuracy recall precision score scores memory "
                          "size footprint speedup qps rps tps cost error loss perplexity f1 ndcg mrr map".split())
_COMPOSITION = re.compile(r"\b(?:consists?\s+of|consisting\s+of|contains?|containing|comprises?|comprising|covering|"
                          r"covers|weighing|made\s+up\s+of|split\s+into|subset\s+of)\b", re.I)
_EXPRESSION_BEFORE = re.compile(r"[\d)]\s*[/*×x+−-]\s*\d+(?:\.\d+)?\s*=\s*$|\bdivided\s+by\b|\btimes\s+\d", re.I)
_THINGS = frozenset("lines line files file records record documents document docs examples example samples images "
                    "tokens sentences pairs queries tasks layers heads runs seeds epochs steps threads cores nodes "
                    "workers folds repeats repetitions languages classes categories candidates responses items rows "
                    "columns users requests messages objects shards partitions replicas iterations trials".split())
_GOVERNORS = {
    **{w: "result" for w in _RESULT_VERBS},
    **{w: "setting" for w in _SETTING_VERBS | {"configure", "configured", "assign", "assigns", "assigned", "default",
                                             "defaults", "give", "gave", "pass", "passed", "specify", "specified"}},
    **{w: "requirement" for w in "need needs needed require requires required demand demands cost costs "
                                 "take takes".split()},
    **{w: "claim" for w in _CLAIM_WORDS},
    **{w: "change" for w in _CHANGE_WORDS},
    **{w: "copula" for w in "is are was were be been being has have had".split()},
}


def cue_features(sentence: str, q: Quantity) -> list[str]:
    """Features of the ``cues`` set (stop 29, read off the leave-one-batch-out errors of all
    development batches: shapes of a measured or a non-measured number that hold across sites
    and authors, not words of one page): the class of the nearest verb-like word before the number
    in its clause (its governor: a result, setting, requirement, claim, change or copula verb) and
    whether that verb is in the past tense; advice or a rule of thumb in the sentence ("as a rule
    of thumb", "recommended", "optimal", "typically": a guideline, not a run); an expectation or
    prediction before the number ("originally expected", "predicted"); an age ("4 months ago");
    an n-fold multiplier written in words ("116-fold", "45 times"); a change "from X to Y" (either
    end), alone and with a change verb in the clause; an observation word in the sentence
    ("observed", "in our benchmark", "we got"); a key of a specification before it ("min:",
    "default:", "max:"); a sentence that opens with a short label naming a result quantity and
    then the number ("QPS of 140", "Compression Ratio: 10:1"); a composition ("consists of",
    "covering"); an arithmetic expression before it ("1/8 = 12.5%", "divided by"); and the number
    counting things of a method (lines, files, tokens, runs, threads, …; not a rate such as "900
    queries per second")."""
    start, end = q.span
    before, after = sentence[:start], sentence[end:]
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(before)]
    clause = before[breaks[-1]:] if breaks else before
    clause_words = [w for w in _words(clause) if w[:1].isalpha()]
    right = [w for w in _words(after) if w[:1].isalpha()][:2]
    out = []
    governor = next((w for w in reversed(clause_words[-8:]) if w in _GOVERNORS), None)
    if governor:
        out.append(f"n:governor:{_GOVERNORS[governor]}")
        if governor.endswith("ed") or governor in ("was", "were", "had", "took", "got", "saw", "ran", "fell", "rose",
                                                   "went", "gave", "found", "grew", "lost", "cut"):
            out.append(f"n:governor:{_GOVERNORS[governor]}:past")
    else:
        out.append("n:governor:none")
    if _ADVICE.search(sentence):
        out.append("s:advice")
    if _EXPECT_BEFORE.search(before):
        out.append("n:expectation-before")
    if _AGO_AFTER.match(after):
        out.append("n:ago")
    if _FOLD.search(q.text) or _FOLD_AFTER.match(after):
        out.append("n:fold")
    from_to = bool(_FROM_TO_BEFORE.search(before) or (_FROM_BEFORE.search(before) and _TO_AFTER.match(after)))
    if from_to:
        out.append("n:from-to")
        if set(clause_words) & _CHANGE_WORDS:
            out.append("n:change-from-to")
    if set(clause_words) & _CHANGE_WORDS:
        out.append("n:change-in-clause")
    if _OBSERVE.search(sentence):
        out.append("s:observation")
    if _SPEC_KEY_BEFORE.search(before):
        out.append("n:spec-key")
    label = _METRIC_LABEL.match(before)
    if label and set(_words(label.group(1))) & (_RESULT_NOUNS | _METRICS):
        out.append("n:result-label")
    if _COMPOSITION.search(clause):
        out.append("n:composition")
    if _EXPRESSION_BEFORE.search(before[-30:]):
        out.append("n:expression-before")
    if (set(right[:1]) & _THINGS or (q.unit or "").lower() in _THINGS) and not _RATE_AFTER.match(after):
        out.append("n:counts-things")
    return out


@lru_cache(maxsize=1 << 17)
def bucket(feature: str) -> int:
    """The hashed index of a feature string: 1 + CRC-32 mod (DIMENSION − 1); 0 is the bias
    (cached: the same words recur across a chapter's numbers)."""
    return 1 + zlib.crc32(feature.encode("utf-8")) % (DIMENSION - 1)


def vector(features: list[str], ngrams: bool | tuple[str, ...] = True) -> dict[int, float]:
    """Sparse binary vector of the feature strings, bias 1 at index 0; the n-gram features
    (words, bigrams, window words, character 3-grams) and the others (``s:`` structure, ``n:``
    number, ``r:`` rules) are two groups, each scaled to unit L2 norm, so that the few
    structural features are not drowned by the many n-grams. ``ngrams=False`` leaves the n-gram
    group out (the bias and the structural group only); a tuple of prefixes keeps only the n-gram
    features that start with one of them (``("L1:", "R1:")``: the words right before and after)."""
    groups: tuple[set[int], set[int]] = (set(), set())
    for f in features:
        structural = f[:2] in ("s:", "n:", "r:")
        if structural or ngrams is True or (ngrams and f.startswith(ngrams)):
            groups[structural].add(bucket(f))
    out: dict[int, float] = {}
    for indices in groups:
        for i in indices:
            out[i] = out.get(i, 0.0) + 1.0 / math.sqrt(len(indices))
    out[0] = 1.0
    return out


def window_text(sentence: str, span: tuple[int, int], words: int = WINDOW_WORDS) -> str:
    """The number (``span`` in ``sentence``) with the ``words`` whitespace-separated words before
    and after it: the stretch of ``sentence`` from the first of those words to the last, as
    written — the text whose MiniLM vector the model reads."""
    start, end = span
    before = [m.start() for m in re.finditer(r"\S+", sentence[:start])]
    after = [m.end() for m in re.finditer(r"\S+", sentence[end:])]
    first = before[-words] if len(before) >= words else (before[0] if before else start)
    last = end + (after[words - 1] if len(after) >= words else (after[-1] if after else 0))
    return sentence[first:last]


@lru_cache(maxsize=1)
def _encoder():
    """The pinned all-MiniLM-L6-v2 (engine.encoder), 1 intra-op thread (deterministic), batch 32;
    a missing onnxruntime or model package is one InputError line (exit 2), never a traceback."""
    try:
        from engine.encoder.encode import EncoderConfig, load_encoder
    except ImportError as exc:  # onnxruntime or tokenizers absent
        raise InputError(f"--kinds model needs the local MiniLM encoder: {exc}; install onnxruntime and "
                         "tokenizers, or use --kinds rules")
    try:
        return load_encoder(EncoderConfig(intra_op_threads=1, batch_size=32))
    except ImportError as exc:
        raise InputError(f"--kinds model needs the local MiniLM encoder: {exc}; or use --kinds rules")
    except InputError as exc:
        raise InputError(f"--kinds model needs the local MiniLM: {exc.render()}; or use --kinds rules")


def minilm_vectors(texts: list[str]) -> np.ndarray:
    """float64 MiniLM vectors (unit L2 norm) of ``texts``, in order, one batched call over the
    distinct texts (a repeated text is encoded once)."""
    if not texts:
        return np.zeros((0, MINILM_DIMENSION))
    distinct = list(dict.fromkeys(texts))
    index = {text: i for i, text in enumerate(distinct)}
    encoded = _encoder().encode(distinct).astype(np.float64)
    return encoded[[index[text] for text in texts]]


@dataclass(frozen=True)
class KindsModel:
    """Weights of the classifier (``claims/kinds_model.json``): the hashed weights, and for each
    MiniLM block (``sentence``: the vector of the number's sentence; ``window``: of
    :func:`window_text`) a 384-vector w_b, so that z = w·x + Σ_b w_b·m_b."""

    weights: dict[int, float]
    threshold: float
    features: str
    lam: float
    sha256: str
    ngrams: bool | tuple[str, ...] = True
    minilm: dict[str, np.ndarray] = field(default_factory=dict)
    window_words: int = WINDOW_WORDS

    def texts(self, sentence: str, quantities: list[Quantity]) -> dict[str, list[str]]:
        """The texts to encode for :meth:`scores`, per MiniLM block (none without MiniLM)."""
        out: dict[str, list[str]] = {}
        if "sentence" in self.minilm:
            out["sentence"] = [sentence]
        if "window" in self.minilm:
            out["window"] = [window_text(sentence, q.span, self.window_words) for q in quantities]
        return out

    def _linear(self, features: list[str]) -> float:
        """w · :func:`vector` (features), summed without building the vector (the hot path of
        ``claims``): each group's distinct buckets, their weights summed and scaled by the group's
        1/sqrt(size), plus the bias weight."""
        groups: tuple[set[int], set[int]] = (set(), set())
        ngrams = self.ngrams
        for f in features:
            structural = f[:2] in ("s:", "n:", "r:")
            if structural or ngrams is True or (ngrams and f.startswith(ngrams)):
                groups[structural].add(bucket(f))
        weight = self.weights.get
        z = weight(0, 0.0)
        for indices in groups:
            if indices:
                z += sum([weight(i, 0.0) for i in indices]) / math.sqrt(len(indices))
        return z

    def scores(self, sentence: str, quantities: list[Quantity], rules_measured: bool = False,
               vectors: dict[str, np.ndarray] | None = None) -> list[float]:
        """p(result) of each quantity of ``sentence``, in order. ``vectors``: the MiniLM vectors of
        :meth:`texts` (rows in order; encoded here, one call, when not given)."""
        if self.minilm and vectors is None:
            vectors = {block: minilm_vectors(texts) for block, texts in self.texts(sentence, quantities).items()}
        dense = [0.0] * len(quantities)
        for block, w in self.minilm.items():
            m = vectors[block] @ w
            dense = [d + float(m[0 if block == "sentence" else i]) for i, d in enumerate(dense)]
        shared = sentence_features(sentence, quantities)
        out = []
        for q, extra in zip(quantities, dense):
            z = self._linear(number_features(sentence, q, shared, self.features, rules_measured)) + extra
            out.append(1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z)))
        return out


def load_model(path: Path = WEIGHTS, expected_sha256: str | None = None) -> KindsModel:
    """Read a weights file whose sha256 is ``expected_sha256`` (default :data:`WEIGHTS_SHA256`);
    another hash is refused, one line."""
    expected = WEIGHTS_SHA256 if expected_sha256 is None else expected_sha256
    path = Path(path)
    if not path.is_file():
        raise RefusalError(f"{path}: kinds model weights not found (retrain: bench/train_kinds_model.py)")
    digest = sha256_file(path)
    if digest != expected:
        raise RefusalError(f"{path}: kinds model weights have sha256 {digest[:12]}…, the code pins "
                           f"{expected[:12]}…; refusing to load them (retrain: bench/train_kinds_model.py)")
    data = json.loads(path.read_text(encoding="utf-8"))
    minilm = data.get("minilm") or {}
    blocks = minilm.get("weights", {})
    if (data.get("dimension") != DIMENSION or data.get("features") not in FEATURE_SETS
            or any(b not in MINILM_BLOCKS or len(w) != MINILM_DIMENSION for b, w in blocks.items())):
        raise RefusalError(f"{path}: kinds model weights are for another feature layout")
    return KindsModel(weights={int(k): float(v) for k, v in data["weights"].items()},
                      threshold=float(data["threshold"]), features=data["features"], lam=float(data["lam"]),
                      sha256=digest, ngrams=_ngrams(data.get("ngrams", True)),
                      minilm={b: np.array(w, dtype=np.float64) for b, w in sorted(blocks.items())},
                      window_words=int(minilm.get("window_words", WINDOW_WORDS)))


def _ngrams(value) -> bool | tuple[str, ...]:
    """The weights file's ``ngrams``: true, false or a list of kept prefixes."""
    return tuple(value) if isinstance(value, list) else bool(value)


@lru_cache(maxsize=1)
def shipped_model() -> KindsModel:
    """The weights shipped in the package (loaded once)."""
    return load_model()



def relabel(rows: list, classify, model: KindsModel | None = None) -> list:
    """Sentence rows with ``kind``/``cue`` decided by the model for the measured kind.

    A row is a measured result when any of its quantities has p ≥ the threshold; its cue then
    reads ``model p=0.873 on '41%' (threshold 0.25, kinds_model 1a2b3c4d5e6f)`` (plus ``; credited to …``
    when the rules found a credit). A row the rules called measured that the model rejects gets
    the kind the rules give it without result numbers (attribution, recommendation, scope or
    method; ``classify`` is :func:`claims.extract.classify`). Table-value rows and the
    quantities' roles are unchanged.
    """
    from claims.roles import masked

    model = model or shipped_model()
    vectors = _row_vectors(rows, model, masked)
    out = []
    for number, row in enumerate(rows):
        if row.kind == TABLE_VALUE or not row.quantities:
            if row.kind == MEASURED:  # (never: the rules need a number) kept for safety
                row = replace(row, kind="method or definition", cue="model: no number")
            out.append(row)
            continue
        words = masked(row.text)
        rules_measured = row.kind == MEASURED
        credited = row.kind == "attribution" or "credited to" in row.cue
        scores = model.scores(words, row.quantities, rules_measured, vectors.get(number))
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        tag = f"(threshold {model.threshold:.2f}, kinds_model {model.sha256[:12]})"
        if scores[best] >= model.threshold:
            cue = f"model p={scores[best]:.3f} on {row.quantities[best].text!r} {tag}"
            if credited:
                cue += f"; credited to {', '.join(row.cited_names) or 'a source'}"
            out.append(replace(row, kind=MEASURED, cue=cue))
        else:
            kind, cue = row.kind, row.cue
            if rules_measured:
                kind, cue = classify(words, [q for q in row.quantities if q.role not in RESULT_ROLES], credited)
            out.append(replace(row, kind=kind, cue=f"model: no result number, max p={scores[best]:.3f} {tag}; {cue}"))
    return out


def _row_vectors(rows: list, model: KindsModel, masked) -> dict[int, dict[str, np.ndarray]]:
    """The MiniLM vectors of every row :func:`relabel` scores, encoded in one batched call per
    block: {row index: {block: rows of vectors}}; empty when the model reads no MiniLM."""
    if not model.minilm:
        return {}
    wanted = {i: model.texts(masked(row.text), row.quantities) for i, row in enumerate(rows)
              if row.kind != TABLE_VALUE and row.quantities}
    out: dict[int, dict[str, np.ndarray]] = {i: {} for i in wanted}
    for block in model.minilm:
        texts = [t for i in wanted for t in wanted[i][block]]
        encoded = minilm_vectors(texts)
        start = 0
        for i in wanted:
            count = len(wanted[i][block])
            out[i][block] = encoded[start:start + count]
            start += count
    return out
