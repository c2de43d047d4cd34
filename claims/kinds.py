"""Measured results decided from evidence: which numbers of a sentence are results, and when a
sentence states one (docs/audit.md "How kinds are decided"; issue 19).

Every rule states a cause that holds beyond one page (the errors of the retired held-out part
of the corpus were grouped by cause; each cause has sentences of our own in
``tests/test_kinds_generalise.py``). :func:`claims.extract.quantity_roles` already sets the
roles ``year``, ``identifier``, ``parameter`` and ``math`` from the words before a number.
:func:`refine_roles` then reads the sentence once and adds:

* ``value`` again for a number set as inline math alone (``on $11$ tasks``) and for a
  multiplier or percentage after an identifier word (``models that run 100x faster``);
* ``step`` — an enumeration marker: a small integer followed by ``)`` (``used 1) for retrieval
  or 2) for …``) or a sentence that opens with ``1.`` / ``2)`` (a numbered lead-in);
* ``identifier`` — a bare number right after a capitalised word that is not the sentence's
  first word, not a metric and not a function word or the start of a clause (``Llama 3``,
  ``Platinum 8168``, ``PyTorch 2.0``; not ``Key observation: All 39``, and not a score: a number
  below 1 printed with two or more decimals, ``and Hybrid 0.400``, or one printed alike in a list
  of such ``Name score`` pairs, ``Dense 0.45 and Hybrid 1.00``, outside a sentence about versions
  or installs), a model size after a
  model name (``Llama 70B``, ``GPT-2 (124M)``), an issue number (``#7162``) or a class code
  (``(1 and 0)``, ``0 or 1``);
* ``year`` — a bare 1900–2099 after a month (``November of 2020``), a citation's ``al.,`` or
  in/since/until/during;
* ``parameter`` — an alternative setting (``instead of 256``, ``down from 200``), a threshold
  with a comparator (``CUDA>=11.2``, ``>8 GB``), a confidence level (``CI 95%``), a number after
  :data:`PARAMETER_WORDS` (``limit 50``), a setting (``set the workers to 8``, ``defaults to``),
  a limit (``up to 100 results``, ``at most``), a requirement (``at least 16 GB``), a machine's
  specification (``a laptop with 8 cores and 32GB of memory``), a load a benchmark applies
  (``sends 300 requests per second``), a precision in bits (``0.4 bits per parameter``), a split
  (``a 70/30 train/test split``), the parts of a mixture (``50% positive, 50% negative``: two or
  more percentages describing the word after them that add up to 100) and the ends of a
  symmetric interval (``-448 to 448``);
* ``count`` — the size of a setup rather than an outcome: a whole number (or a magnitude ``41M``,
  ``8.8M``, ``1.5-billion``) followed within three words by a noun of :data:`COUNT_NOUNS`
  (``15 diverse datasets``, ``23 smaller BERT models``, ``190 configurations``), what a model was
  trained on (``pretrained on 40 GB of text``), the total of an ``N of M`` count (``7 of the 11
  tasks``: 11) and a part of a counted setup (``18 datasets, 14 of them public``); not the
  number of tasks a method improved or won (``improved the state of the art on 11 tasks``);
* ``estimate`` — a number in the scope of a hypothetical (``would``, ``could``, ``expected to``,
  ``suppose``, ``in theory``, ``assuming``: from the marker's clause, or the ``if`` clause before
  it, to the end of the sentence) or in the clause of an estimate (``an estimated $3.8``, ``a
  potential 5x``): "requires 5GB, far less than the 200GB which would be required" keeps its
  5GB;
* ``target`` — an aim (``the goal is to``, ``in order to``, ``we aim to cut latency by 30%``);
* ``derived`` — arithmetic on the sentence's own definitions: a ratio or share that follows
  from the number formats it names (``1-bit instead of float32 … 32x``, ``bfloat16 … saves
  50%``; a lone format against float32; not a speed-up) and a memory size that is the product
  of its numbers and a format's bytes (``a 1024-dimensional float32 vector takes 4 KB``).

:func:`measured_cue` finds evidence of a measurement beyond the cues of
:func:`claims.extract.classify` (metric and change words, result-shaped numbers):
a percentage of a baseline (``retains 90% of``, ``87.4% as performant as``, ``within 15% of``,
``within 0.002 of the published``), a comparison with a baseline (``2.3 points above the BM25
baseline``), a duration said with an approximator (``takes just 30 seconds``, ``in about 4
days``, ``over the course of 4 days``, ``around twenty minutes``) or as a time per unit (``30
minutes per epoch``, ``every 13 ms``), a rank (``ranking 1st``), a share in parentheses after a
count (``All 39 misalignments (24.4%)``), a part of a counted whole (``45 of which``, ``out of
200 …, 37``), a count judged right or wrong (``93 sentences correctly``), an outcome verb or an
observation marker (:data:`OUTCOME_WORDS`: observe, report, reach, retain, save, waste, we find,
we get, went from, drops to …), a speed (``13 qps``, ``2,500 passages per second``) and the
memory or disk a method used (``we use 5.2GB of memory``, ``3.1 GB on disk``).

:func:`not_measured` vetoes a sentence that cannot state a measurement: a question (it ends in
``?``), an instruction (it opens with an imperative verb and its object: ``Increase the batch to
64``), a plan (``will be added``, ``we plan``, ``we will show``, ``in the next post``, ``on the
roadmap``), a definition (``refers to``, ``is defined as``), a hedge (``may … up to``) or an
illustration. A numbered list marker, a setting, a year or a version is never evidence.

Deterministic; no model. The rules were written on the development part of the labelled corpus
(``tests/data/corpus``) only; the held-out part is scored when a change is finished
(``bench/bench_claims_quality.py --held-out``, every scoring logged).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, replace

from claims.quantities import Quantity

MEASURED = "measured result"
TABLE_VALUE = "table value"
RESULT_ROLES = ("value", "p-value")
"""The measured-result kind, the table-value kind and the quantity roles that make a result:
named here, below both deciders (the rules of :mod:`claims.extract` and the trained
:mod:`claims.kinds_model`), so that they are one set of names."""
KIND_OPTIONS = ("rules", "model")
"""Who decides the measured-result kind: these rules or the trained classifier of
:mod:`claims.kinds_model`. Named here so that checking a ``--kinds`` value does not load numpy
and the model."""
DEFAULT_KINDS = "model"
"""The decider of the commands authors run on their chapters (``claims``, ``report``, ``book``,
the search targets of ``sources``): the trained classifier, far better than these rules on pages
nobody here wrote (README, Conventions, "Measured-result kind"). ``bind`` always uses the rules
(a separate, conservative contract pinned by bench_bind and the W03 bindings), and the library
functions of :mod:`claims.extract` keep ``rules`` as their own default."""


def check_kinds(kinds: str) -> str:
    """``kinds`` if it is ``rules`` or ``model``; else a ValueError naming the choices."""
    if kinds not in KIND_OPTIONS:
        raise ValueError(f"unknown kinds {kinds!r} (choose rules or model)")
    return kinds

COUNT_NOUNS = frozenset("""
dataset datasets language languages dimension dimensions dimensional dim vector vectors example examples
thread threads core cores bit bits token tokens parameter parameters params gpu gpus tpu tpus
layer layers head heads epoch epochs sample samples document documents doc docs passage passages
model models file files line lines node nodes worker workers instance instances class classes
label labels pair pairs query queries categories category component components
feature features channel channels entry entries row rows column columns shot shots
item items candidate candidates text texts sentence sentences embedding embeddings scenario scenarios
vcpu vcpus cpu cpus test tests kloc loc task tasks benchmark benchmarks configuration configurations
setting settings variant variants experiment experiments run runs trial trials seed seeds fold folds
decimal decimals digit digits
""".split())
"""Nouns that count the parts of a setup (data, hardware, model shape), not an outcome."""

PARAMETER_WORDS = frozenset("limit ci oversampling threshold size k n m".split())
METRIC_NAMES = frozenset("""
recall precision accuracy ndcg map mrr f1 auc bleu rouge perplexity loss error score latency
throughput speedup cost
""".split())
OUTCOME_WORDS = ("observe", "observed", "observes", "report", "reports", "reported", "reach", "reaches", "clocked",
                 "reduce", "improve", "boost", "boosts", "boosted", "lower", "shorten", "shortened",
                 "reached", "reaching", "retain", "retains", "retained", "retaining", "lose", "loses",
                 "losing", "save", "saves", "saved", "saving", "cutting", "speed-up", "speed-ups", "gets",
                 "got", "outperforms", "outforms", "beats", "matches", "ranking", "ranked",
                 "we find", "i find", "find that", "finds that", "we found", "we get", "we see", "we saw",
                 "we measure", "we noticed", "we notice", "we obtain", "obtains", "obtained", "waste", "wastes", "wasted", "wasting",
                 "went from", "goes from", "going from", "drops to", "dropped to", "falls to", "fell to",
                 "rises to", "rose to", "comes to", "came to", "comes out at", "came out at", "amounts to",
                 "misclassified", "misclassifies", "mislabelled", "mislabeled")
"""Verbs of an observed outcome (a number near one is a result unless it is a setting)."""
_OUTCOME = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in OUTCOME_WORDS) + r")(?![\w-])", re.I)
_OF_BASELINE = re.compile(r"%\s+(?:of\s+(?:the|its|their|our|a|an|all)\b|as\s+\w+\s+as\b)", re.I)
_WITHIN_BEFORE = re.compile(r"\bwithin\s+[~≈]?$", re.I)
_APPROX = re.compile(r"(?:about|around|roughly|approximately|just|only|under|over|in|over\s+the\s+course\s+of|"
                     r"~|≈)\s*[~≈]?$", re.I)
TIME_UNITS = frozenset("second sec minute min hour day week ms s h".split())
_SPEED_UNIT = re.compile(r"^\s*(?:qps|rps|tokens/s|it/s|req/s|(?:queries|requests|sentences|tokens|documents|docs|"
                         r"passages|images|samples|examples|items|pages)\s+(?:per|a|/)\s*(?:second|sec|s)\b)", re.I)
_LOAD_BEFORE = re.compile(r"\b(?:at|send|sends|sending|sent|issue|issues|issuing|rate\s+of|load\s+of|with)\s+"
                          r"(?:a\s+)?(?:constant\s+|fixed\s+|steady\s+)?$", re.I)
"""A load that a benchmark applies ("at 200 requests per second"), not one it measured."""
_BASELINE_AFTER = re.compile(
    r"^\s*(?:(?:percentage\s+)?points?|pp|%)?\s*(?:above|below|ahead\s+of|behind|"
    r"(?:over|under|than)\s+(?:the\s+|a\s+|our\s+|its\s+|their\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:baseline|previous|prior|original|default|reference|teacher|state[- ]of[- ]the[- ]art)\b)", re.I)
"""A comparison with a baseline: "2.3 points above the BM25 baseline", "12% over the previous best"."""
_RANK = re.compile(r"\b(?:rank|ranks|ranked|ranking|place|placed|places)\b", re.I)
_SHARE_AFTER_COUNT = re.compile(r"\b\d[\d,]*\s+(?:[A-Za-z-]+\s+){0,2}\(\s*\d+(?:\.\d+)?\s?%\s*\)")
_PART_OF_WHOLE = re.compile(r"\b\d[\d,]*\s+of\s+(?:which|them|these|those)\b|\bout\s+of\s+\d[\d,]*\b[^.;]*?\d|"
                            r"\b\d[\d,]*\s+times\s+out\s+of\s+\d", re.I)
"""A part of a counted whole: "45 of which were right", "out of 200 sampled answers, 37 …"."""
_CORRECTNESS_AFTER = re.compile(r"^(?:\s+[\w'’-]+){0,5}?\s+(?:correctly|incorrectly|wrongly|successfully)\b", re.I)
"""A count judged right or wrong right after it ("93 sentences correctly"), not a purpose ("to
correctly predict")."""
_METRIC_BEFORE = re.compile(
    r"(?:\b(?:" + "|".join(sorted(METRIC_NAMES | {"kappa", "agreement", "correlation", "mae", "rmse", "mse", "em"}))
    + r")(?:@\d+)?|κ|ρ)\s*(?:(?:is|was|are|were|of|at|to|reaches|reached|drops|dropped|fell|rose|went|goes|down|up)\s+){0,3}"
    r"(?:[=:≈]\s*)?$", re.I)
_SETTING_OF_METRIC = re.compile(r"\b(?:temperature|weight|margin|threshold|coefficient|scale|factor|decay|dropout|seed|cutoff)\s+"
                                r"(?:for|of|in)\s+(?:the\s+|a\s+)?(?:[\w-]+\s+){0,2}[\w@-]+\s+(?:is|was|of|=)?\s*$", re.I)
"""A setting of a metric's computation ("the temperature for contrastive loss is 0.01")."""
_TOOK_BEFORE = re.compile(r"\b(?:took|takes|taking|lasted|lasts|needed|required)\s+(?:about\s+|around\s+|roughly\s+|"
                          r"only\s+|just\s+|under\s+|over\s+|~)?$", re.I)
_PART_OF_AFTER = re.compile(r"\s+of\s+(?:which|them|these|those)\b", re.I)
_QUESTION = re.compile(r"\?[\"'”’)\]]*\s*$")
_SPECULATION = re.compile(r"\b(?:could|would|wouldn't|couldn't)\b", re.I)
_PLAN = re.compile(r"\b(?:will be (?:added|released|published|supported)|in the future|we plan|we intend|"
                   r"we aim|stay tuned|on (?:the|our) roadmap|coming soon|is planned|are planned|(?:we|I)\s+will\s+(?:show|demonstrate|release|add|publish|present|share)|"
                   r"in (?:the|a) (?:next|future|follow-up|later|upcoming) (?:post|article|section|chapter|part|release|"
                   r"version|blog post))\b", re.I)
_DEFINITION = re.compile(r"\b(?:refers?\s+to|(?:is|are)\s+defined\s+as|denotes|stands\s+for)\b|"
                         r"^\W*(?:the\s+)?[\w@-]+(?:\s+[\w@-]+)?\s+(?:is|are)\s+(?:simply\s+)?(?:the|a)\s+(?:number|fraction|"
                         r"share|ratio|proportion|percentage|sum|mean|average|count|harmonic\s+mean)\s+of\b", re.I)
"""A definition ("binary quantization refers to … a 32x reduction"): what a term means, whose
numbers follow from it."""
_INSTRUCTION = re.compile(
    r"^\W*(?:(?:then|next|first|finally|now|afterwards|optionally),?\s+)?"
    r"(set|use|run|pass|try|choose|pick|specify|launch|install|download|configure|enable|disable|allocate|"
    r"(?:increase|decrease|reduce|raise|lower|change|adjust|limit)(?=\s+(?:the|your|it|this|its|them)\b))"
    r"\s+(?:the|a|an|your|our|it|this|these|those|each|every|all|some|them|--?\w|`)", re.I)
"""An instruction: a sentence that opens with a verb in the imperative ("Increase the batch to 64",
"Then run the script with 4 workers"); the numbers it gives are what the reader should use."""
_HEDGE = re.compile(r"\b(?:may|might|sometimes)\b[^.;]*?\bup to\b", re.I)
"""A possibility bounded from above (``savings …, sometimes up to 90%``, ``may be up to 3x``): a
claim of what may happen, not a number measured (``can reach up to 34% better latency`` reports
a benchmark and stays a result)."""
_ILLUSTRATION = re.compile(r"^\W*(?:for example|for instance|e\.g\.),?\s+(?:if|using|suppose|say|"
                           r"an?\s+(?:[\w-]+\s+){0,2}?(?:system|sequence|model|prompt|query|request|document|"
                           r"index|user|machine|server|job|engine)\s+(?:\w+ing|that|with|of)\b)|"
                           r"\btranslates\s+to\b", re.I)
"""A worked illustration (``For example, using 768 dimensions instead of 384 doubles …``, ``For
instance, a system ingesting a constant 10RPS …``: an indefinite, generic thing described) or a
derived requirement (``this translates to streaming 76 objects per second``): arithmetic on a
setting, not a number measured."""
_ALTERNATIVE_AFTER = re.compile(r"^\s+(?:[A-Za-z]+\s+)?instead\s+of\b", re.I)
_SIZE_OF_BEFORE = re.compile(r"\b(?:size|length)\s+of\s+$", re.I)
_SIZE_RATIO_AFTER = re.compile(r"^\s+the\s+(?:size|length)\s+of\b", re.I)
_STEP_AFTER = re.compile(r"^\)\s")
_SECTION_AT_START = re.compile(r"^\s*\d{1,2}(?:\.\d{1,2}){1,3}\.?\s+[A-Z][a-z]+\b")
_STEP_AT_START = re.compile(r"^\s*\(?\d{1,2}[.)]\s")
_CAPITALISED_BEFORE = re.compile(r"(?:^|\s)([A-Z][A-Za-z]+)\s+$")
_COMPARATOR_BEFORE = re.compile(r"(?:^|[\s(A-Za-z])(?:>=|<=|[<>≤≥])\s?$")
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")
_OF_TOTAL_BEFORE = re.compile(r"(?<![\w@.,])\d[\d,]*\s+(?:out\s+)?of\s+(?:the\s+|all\s+)?$")
MAGNITUDES = frozenset({"M", "K", "k", "B", "G"})
WINDOW = 80
"""How far (characters) the rules look before and after a number: keeps every rule linear in the
sentence length (a sentence of 20,000 percentages must not take minutes)."""
MEMORY_UNITS = frozenset({"byte", "bytes", "KiB", "MiB", "GiB", "TiB", "kB", "KB", "MB", "GB", "TB", "PB", "Gb", "Mb", "G"})
SPEC_UNITS = frozenset({"GHz", "MHz", "px"})
_HARDWARE_AFTER = re.compile(r"^\)?\s*(?:GPU|GPUs|node|nodes|card|cards|machine|machines|instance|instances|"
                             r"server|servers|laptop|memory|RAM|VRAM|disk|disks|SSD|storage|per\b)", re.I)
_HASH_BEFORE = re.compile(r"#$")
_CODE_BEFORE = re.compile(r"\b(?:exit|exits|exited|exit\s+code|status|status\s+code|return\s+code|error\s+code|errno|HTTP|port|"
                          r"signal|code)\s+(?:of\s+|is\s+|=\s*)?$", re.I)
_PARAMETER_IS_BEFORE = re.compile(r"\b(?:threshold|cutoff|cut-off|seed|temperature|margin|stride|overlap|limit|budget|"
                                  r"window|timeout|alpha|beta|lambda|k)\s+(?:is|was|of|at|equals|=)\s+(?:set\s+to\s+)?$", re.I)
_RESOURCE_AFTER = re.compile(r"^\s+(?:of\s+(?:the\s+)?(?:GPU\s+|CPU\s+|disk\s+)?(?:memory|disk|storage|RAM|VRAM|space)|"
                             r"on\s+disk|in\s+(?:memory|RAM|VRAM))\b", re.I)
_STORED_IN_BEFORE = re.compile(r"\b(?:store|stores|stored|storing|fit|fits|fitted|fitting|hold|holds|held|pack|packs|packed)"
                               r"\b[^,;:]{0,60}?\b(?:in|into|within)\s+(?:just\s+|only\s+|about\s+|under\s+)?$", re.I)
_REQUIREMENT_BEFORE = re.compile(r"\b(?:at\s+least|a\s+minimum\s+of|minimum\s+of|min\.?)\s+$", re.I)
"""A requirement ("at least 16 GB of RAM"), not what was used."""
_PER_SECOND_AFTER = re.compile(r"^\s*(?:per|a|/)\s*(?:second|sec|s)\b", re.I)
SPEED_NOUNS = frozenset("query queries request requests sentence sentences token tokens document documents doc docs "
                        "passage passages image images sample samples example examples item items page pages".split())
_SPEC_BEFORE = re.compile(r"\b(?:GPUs?|CPUs?|machines?|laptops?|desktops?|workstations?|servers?|nodes?|instances?|cards?|"
                          r"devices?|clusters?|box|boxes|VMs?|hosts?|phones?)\b[^,;:(]*?\b(?:with|has|had|have|having|"
                          r"offers?|offered|provides?|equipped)\b", re.I)
"""A machine's specification in the number's clause ("a GPU with 24GB of memory", "the laptop
had 8 cores and 16 GB of memory"), not what a method used."""
_COUNT_LABEL_BEFORE = re.compile(r"\b([A-Za-z]+)\s*:\s*$")
_INSTEAD_OF_BEFORE = re.compile(r"\b(?:instead\s+of|down\s+from|up\s+from)\s+$|,\s+not\s+$", re.I)
_RATE_AFTER = re.compile(r"^\s+per\b", re.I)
FUNCTION_WORDS = frozenset("""
all only about around over under nearly almost approximately roughly just each every the some top first last
with in on at for from to by and or but than of after before since until up down another these those its
their our we it this that there total overall exactly least most more less fewer
""".split())
"""Words that begin a noun phrase or a clause: a number after one is no part of a name (``Key
observation: All 39 misalignments``), and a noun after one is not what a number counts."""
_CLAUSE_START = re.compile(r"[:;]\s*$")
_WON_BEFORE = re.compile(r"\b(?:improved|improves|improve|outperform(?:s|ed|ing)?|beat|beats|won|wins|surpass(?:es|ed)?|"
                         r"state[- ]of[- ]the[- ]art|sota)\b(?:\s+[\w-]+){0,8}\s+(?:across|on|in|for)\s+\$?$", re.I)
_INPUT_BEFORE = re.compile(r"\b(?:pre-?trained|trained|fine-?tuned|finetuned|distilled|learned|learnt)\s+(?:\w+\s+)?"
                           r"(?:on|with|over|from)\s+(?:about\s+|roughly\s+|around\s+|over\s+|nearly\s+|some\s+)?\$?$", re.I)
"""What a model was trained on is an input ("pretrained on 40 GB of text"), not an outcome."""
_MAGNITUDE_WORDS = ("thousand", "million", "billion", "trillion")
_HYPOTHETICAL = re.compile(r"\b(?:would|could|wouldn't|couldn't|(?:is|are|was|were|be)\s+expected\s+to|expected\s+to\s+be|"
                           r"(?:we|I|you|they|one)\s+(?:would\s+)?expect|expects|in theory|in principle|assum(?:e|es|ed|ing)|"
                           r"hypothetical(?:ly)?|suppose|supposing|imagine|let's say|let’s say|say we have|say you have)\b", re.I)
_ESTIMATE = re.compile(r"\b(?:(?:an|the|our)\s+estimated|estimated\s+(?:to|at)|(?:is|are|was|were)\s+estimated|"
                       r"potential(?:ly)?|theoretical(?:ly)?|projected)\b", re.I)
_CONDITION = re.compile(r"\b(?:if|suppose|imagine|unless)\b", re.I)
_SCOPE_BREAK = re.compile(r"[,;:()]|\s[—–-]\s")
_WIDTH = re.compile(r"(?<![\w.])(?:(?:b?float|fp|bf|u?int)(?P<glued>\d{1,2})(?!\d)|(?P<bits>\d{1,2})[- ]bits?\b|"
                    r"(?P<word>binary|float|half\s+precision|single\s+precision|full\s+precision)(?![\w-]))", re.I)
_SPEED_AFTER = re.compile(r"^\s*(?:[\w-]+\s+){0,2}?(?:faster|slower|quicker|speed|speed-?ups?|throughput|latency|qps)\b", re.I)
_SET_TO_BEFORE = re.compile(r"(?:\b(?:set|sets|setting|defaults|defaulted|configured|fixed|capped|limited)\s+"
                            r"(?:[\w-]+\s+){0,4}?(?:to|at|as|=)|\bdefault(?:\s+value)?\s+(?:of|is|=))\s+(?:a\s+|an\s+)?$", re.I)
"""A setting: "we set the temperature to 0.7", "the number of workers defaults to 8"."""
_PURPOSE_BEFORE = re.compile(r"\b(?:in\s+order\s+to|so\s+as\s+to|(?:goal|aim|job|task|objective|idea|plan)\s+(?:is|was)\s+to|"
                             r"(?:aims?|aimed|want|wants|wanted|try|tries|tried|trying)\s+to)\s+(?:[\w-]+\s+){0,6}$", re.I)
"""A purpose or an aim ("the goal is to cut latency by 30%", "we aim to reach 0.9"): a target."""
_LIMIT_BEFORE = re.compile(r"\b(?:up\s+to|at\s+most|a\s+maximum\s+of|max(?:imum)?\s+of|no\s+more\s+than)\s+$", re.I)
_COMPARATIVE_AFTER = re.compile(r"^\s*(?:[\w-]+\s+)?(?:more|less|fewer|faster|slower|higher|lower|better|worse|"
                                r"smaller|larger|bigger|cheaper)\b", re.I)
_MEANS_AFTER = re.compile(r"^\s+(?:means|meaning|indicates|denotes|stands\s+for|signifies|corresponds\s+to|is\s+assigned)\b", re.I)
_BITS_AFTER = re.compile(r"^\s+bits?\b", re.I)
_YEAR_BEFORE = re.compile(r"(?:\b(?:January|February|March|April|May|June|July|August|September|October|November|"
                          r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?(?:\s+\d{1,2},?)?(?:\s+of)?|"
                          r"\bal\.,?|\b(?:in|since|until|during|early|late|mid|spring|summer|autumn|fall|winter)"
                          r"(?:\s+of)?)\s+$")
_SPLIT_WORDS = re.compile(r"\b(?:train|training|test|testing|validation|dev|held-out|split)\b", re.I)
_NOT_A_PART = frozenset("""
of more less fewer faster slower higher lower better worse smaller larger bigger cheaper improvement
improvements reduction increase decrease gain drop speedup speed-up and or to on in for
""".split())


def refine_roles(sentence: str, quantities: list[Quantity]) -> list[Quantity]:
    """The quantities with the roles of the module docstring added (others unchanged)."""
    first = re.match(r"\W*(\w+)", sentence)
    first_end = first.end(1) if first else 0
    scopes = _hypothetical_scopes(sentence)
    derived = _derived_ratios(sentence)
    mixture = _fixed_shares(sentence, quantities)
    sizes = _derived_sizes(sentence, quantities)
    scores = _scores_after_names(sentence, quantities)
    out: list[Quantity] = []
    for q in quantities:
        role = q.role
        if (out and out[-1].role == "count" and role == "value"
                and _PART_OF_AFTER.match(sentence, q.span[1], q.span[1] + 30)):
            out.append(replace(q, role="count"))  # "18 datasets, and 14 of them are public": part of the setup
            continue
        if role == "math" and _bare_math_number(sentence, q):
            role = "value"  # d2l writes "on $11$ tasks": a number set as math is still a number
        if (role == "parameter" and (q.unit or "").lower().rstrip("s") in TIME_UNITS
                and _TOOK_BEFORE.search(sentence, max(0, q.span[0] - 30), q.span[0])):
            role = "value"  # "3 epochs, which took 40 minutes per epoch": a duration observed
        if (role == "parameter" and _METRIC_BEFORE.search(sentence, max(0, q.span[0] - 40), q.span[0])
                and not _SETTING_OF_METRIC.search(sentence, max(0, q.span[0] - 60), q.span[0])):
            role = "value"  # "after 10 epochs the training loss is 0.35", "κ = 0.71": a metric's value
        if role == "identifier" and (q.is_multiplier or q.is_percent):
            role = "value"  # "models that run 100x faster": an identifier is a plain number
        if role == "value":
            role = _role(sentence, q, first_end, q.span in scores) or role
        if role == "value":
            role = _setup_role(sentence, q, scopes, derived, mixture, sizes) or role
        out.append(replace(q, role=role) if role != q.role else q)
    return out


_VERSION_CONTEXT = re.compile(r"\b(?:versions?|releases?|released|upgrade[ds]?|upgrading|install(?:ed|ing|s)?|pip|"
                              r"packages?|librar(?:y|ies)|pinned|requires?|required)\b", re.I)
"""Words that make a ``Name 0.25`` a software version ("upgrade to Pandas 0.25"), not a score."""
_LIST_GAP = re.compile(r"^\s*(?:[,;]\s*(?:and\s+)?|and\s+|vs\.?\s+|versus\s+)(?:the\s+)?[A-Za-z][\w.+-]*\s+$")


def _is_score(q: Quantity) -> bool:
    """A plain number below 1 printed with two or more decimals: how a score is printed, never a
    version (versions look like ``v2``, ``3.5``, ``2.1.0``, ``Llama 3``, ``GPT-4o``)."""
    return (q.unit is None and not q.is_percent and not q.is_multiplier and q.denominator is None
            and q.upper is None and q.decimals >= 2 and 0 <= q.value < 1)


def _scores_after_names(sentence: str, quantities: list[Quantity]) -> set[tuple[int, int]]:
    """Spans of the numbers after a capitalised name that are scores, not versions: a score
    (:func:`_is_score`: "and Hybrid 0.400") and a number printed with the same decimals in a list
    of ``Name score`` pairs holding one ("BM25 0.41, Dense 0.45 and Hybrid 1.00"). None when the
    sentence speaks of versions, releases or installs ("upgrade to Pandas 0.25")."""
    if _VERSION_CONTEXT.search(sentence):
        return set()
    out = {q.span for q in quantities if _is_score(q)}
    changed = True
    while changed:  # spread along the list, both ways, to numbers printed alike
        changed = False
        for a, b in zip(quantities, quantities[1:]):
            if (a.span in out) == (b.span in out) or a.decimals != b.decimals or a.decimals < 2:
                continue
            if (a.unit is None and b.unit is None and not a.is_percent and not b.is_percent
                    and _LIST_GAP.match(sentence[a.span[1]:b.span[0]])):
                out.update((a.span, b.span))
                changed = True
    return out


def _role(sentence: str, q: Quantity, first_end: int, score: bool = False) -> str | None:
    start, end = q.span
    before, after = sentence[max(0, start - WINDOW):start], sentence[end:end + WINDOW]
    plain = q.unit is None and not q.is_percent and not q.is_multiplier and q.denominator is None
    if plain and q.decimals == 0 and q.value <= 20 and _STEP_AFTER.match(after):
        return "step"
    if start < 4 and _STEP_AT_START.match(sentence[:end + 2]):
        return "step"
    if start < 4 and _SECTION_AT_START.match(sentence):
        return "identifier"  # a section number glued to its heading in a flattened pack: "1.1 Example of …"
    if _COMPARATOR_BEFORE.search(before):
        return "parameter"
    if _HASH_BEFORE.search(before):
        return "identifier"  # an issue or pull-request number: #7162
    if plain and _CODE_BEFORE.search(before):
        return "identifier"  # an exit or status code, a port: "exit 2", "HTTP 429", "port 8080"
    label = _COUNT_LABEL_BEFORE.search(before)
    if plain and label and label.group(1).lower() in COUNT_NOUNS:
        return "count"  # "Average input tokens: 202"
    previous = _WORD.findall(before[-30:])
    if previous and previous[-1].lower() in PARAMETER_WORDS and re.search(r"[A-Za-z]\s+$", before):
        return "parameter"
    if _PARAMETER_IS_BEFORE.search(before):
        return "parameter"  # "if the threshold is 0.5", "a cutoff of 10"
    name = _CAPITALISED_BEFORE.search(before)
    if (plain and name and name.start(1) >= first_end and name.group(1).lower() not in METRIC_NAMES
            and name.group(1).lower() not in FUNCTION_WORDS and not _CLAUSE_START.search(before[:name.start(1)])
            and not after.lstrip().startswith(("%", "percent")) and not score):
        return "identifier"  # a name and its version ("Llama 3", "PyTorch 2.0"); a score is not one
    if _OF_TOTAL_BEFORE.search(before) or _INSTEAD_OF_BEFORE.search(before):
        return "count" if _OF_TOTAL_BEFORE.search(before) else "parameter"
    if _ALTERNATIVE_AFTER.match(after) or _SIZE_OF_BEFORE.search(before):
        return "parameter"  # "64 characters instead of 256", "a total size of 311 GB"
    if (q.is_multiplier or q.unit == "times") and _SIZE_RATIO_AFTER.match(after):
        return "parameter"  # "a model 30 times the size of": a model's size, no outcome
    if _SPEED_UNIT.match(after):
        return None
    unit = q.unit or ""
    if unit in SPEC_UNITS or (unit in MEMORY_UNITS and _HARDWARE_AFTER.match(after)):
        return "parameter"
    if unit in MAGNITUDES and re.search(r"[A-Za-z0-9]\s*\($", before) and after.startswith(")"):
        return "identifier"  # a model size after its name: GPT-2 (124M)
    if unit in MAGNITUDES and re.search(r"(?:^|\s)[A-Za-z][\w.-]*[A-Z0-9][\w.-]*\s+$", before) and \
            re.search(r"[A-Z]", before.split()[-1] if before.split() else ""):
        return "identifier"  # a model size after a model name: Llama 70B, Llama3 8B, T-Few 3B
    if _INPUT_BEFORE.search(before):
        return "count"  # a training set's or a model's size is an input
    following = _following_words(after)
    if ((following[:1] and following[0] in _MAGNITUDE_WORDS or unit in MAGNITUDES)
            and any(w in COUNT_NOUNS for w in following) and not _WON_BEFORE.search(before)):
        return "count"  # "the 1.5-billion-parameter GPT-2", "7.5 million documents"
    if q.decimals == 0 and (plain or unit in MAGNITUDES or unit.lower().rstrip("s") in COUNT_NOUNS):
        if _WON_BEFORE.search(before.rsplit(";", 1)[-1]):
            return None  # the number of tasks a method improved or won is an outcome
        if unit.lower() in COUNT_NOUNS or unit.lower().rstrip("s") in COUNT_NOUNS:
            if not _RATE_AFTER.match(after):
                return "count"
        if any(word in COUNT_NOUNS for word in _following_words(after)):
            return "count"
    return None


def _bare_math_number(sentence: str, q: Quantity) -> bool:
    """A plain number that is the whole of an inline math span (``$11$``)."""
    start, end = q.span
    return (q.unit is None and not q.is_percent and sentence[start - 1:start] == "$"
            and sentence[end:end + 1] == "$")


def _following_words(after: str) -> list[str]:
    """The (lower-cased, hyphen-split) words of the next three tokens (``23 smaller BERT
    models``), stopping at a rate word (``per query`` is a rate, not a count) or a function word
    (``4 points on MTEB tasks``: the noun after ``on`` is not what the number counts)."""
    words: list[str] = []
    for token in after.split()[:3]:  # "-billion-parameter" (glued) counts as one token
        parts = [w.lower() for w in re.findall(r"[A-Za-z]+", token)]
        if any(p in ("per", "each", "every", "a", "an") or p in FUNCTION_WORDS for p in parts[:1]):
            break
        words.extend(parts)
        if re.search(r"[,;:.]$", token):
            break
    return words


def _setup_role(sentence: str, q: Quantity, hypothetical: tuple, derived: tuple[set, set],
                fixed: set[tuple[int, int]], sizes: set[tuple[int, int]] = frozenset()) -> str | None:
    """The roles of a number that describes the setup or a consequence of it, not an outcome
    (module docstring: ``estimate``, ``derived``, ``parameter``, ``year``, ``identifier``)."""
    start, end = q.span
    before, after = sentence[max(0, start - WINDOW):start], sentence[end:end + WINDOW]
    plain = q.unit is None and not q.is_percent and not q.is_multiplier and q.denominator is None
    unit = (q.unit or "").rstrip("s") if q.unit not in ("ms", "s") else q.unit
    if q.span in fixed:
        return "parameter"
    begin, estimates = hypothetical
    if begin is not None and start >= begin or any(a <= start < b for a, b in estimates):
        return "estimate"
    ratios, shares = derived
    if (q.is_multiplier and any(abs(q.value - r) < 1e-6 for r in ratios)
            or q.is_percent and q.upper is None and any(abs(q.value - p) < 0.05 for p in shares)):
        if not _SPEED_AFTER.match(after):
            return "derived"
    if _SETTING_OF_METRIC.search(before):
        return "parameter"  # "the temperature for the contrastive loss is 0.05"
    if _PURPOSE_BEFORE.search(re.split(r"[,;:(]|\b(?:but|and|while|whereas|yet)\b", before)[-1]):
        return "target"  # "the goal is to correctly label 15% of …": an aim, not an outcome
    if _SET_TO_BEFORE.search(before) or (_SPEED_UNIT.match(after) and _LOAD_BEFORE.search(before)):
        return "parameter"  # "set the workers to 8", "sends 300 requests per second"
    if q.unit in MEMORY_UNITS and (_REQUIREMENT_BEFORE.search(before) or _RESOURCE_AFTER.match(after)
                                   and _SPEC_BEFORE.search(re.split(r"[,;:(]", before)[-1])):
        return "parameter"  # a machine's specification: "a workstation with 16 cores and 64GB of memory"
    if (not q.is_percent and not q.is_multiplier and unit not in MEMORY_UNITS and unit.lower() not in TIME_UNITS
            and _LIMIT_BEFORE.search(before) and not _COMPARATIVE_AFTER.match(after)):
        return "parameter"  # a limit: "returns up to 100 results per page", "at most 1000 candidates"
    if (q.denominator is not None and q.numerator + q.denominator in (10, 100)
            and re.match(r"^\s*(?:[\w/-]+\s+){0,2}?split\b", after, re.I)):
        return "parameter"  # a split: "a 70/30 train/test split"
    if q.unit in MEMORY_UNITS and q.span in sizes:
        return "derived"  # "768 float32 values take 3 KB": the product of the sentence's own numbers
    if plain and _MEANS_AFTER.match(after):
        return "identifier"  # a point of a scale: "a score of 3 means highly relevant"
    if _BITS_AFTER.match(after):
        return "parameter"  # a precision: "0.4 bits per parameter", "8 bits"
    if plain and q.decimals == 0 and 1900 <= q.value <= 2099 and "," not in q.text and _YEAR_BEFORE.search(before):
        return "year"
    if plain and q.decimals == 0 and q.value in (0, 1) and (
            re.match(r"^\s*(?:and|or|/|,)\s*[01](?!\d|\.\d)", after) or re.search(r"(?<![\d.])[01]\s*(?:and|or|/|,)\s*$", before)):
        return "identifier"  # class codes "(1 and 0)", "0 or 1": symbols, not amounts
    return None


def _hypothetical_scopes(sentence: str) -> tuple[int | None, tuple[tuple[int, int], ...]]:
    """The hypothetical parts of the sentence: where the scope of its first modal or supposition
    begins (None when it has none; ``would``, ``could``, ``expected to``, ``suppose``, ``in
    theory``, ``assuming``: the start of the marker's clause, or of an ``if`` clause before it,
    to the end of the sentence), and the clauses of an estimate (``an estimated $3.8``, ``a
    potential 5x``, ``theoretically``: that clause only). "requires 5GB, far less than the 200GB
    which would be required" keeps its 5GB; "this could make search up to 30x faster" has no
    number outside the scope; "as expected, recall rose to 0.8" is an observation."""
    begin = None
    marker = _HYPOTHETICAL.search(sentence)
    if marker is not None:
        if marker.group(0).lower().startswith(("would", "could")):
            condition = _CONDITION.search(sentence, max(0, marker.start() - 4 * WINDOW), marker.start())
            if condition:  # "if we had 10x more data, we would …": the condition is hypothetical too
                marker = condition
        breaks = [m.end() for m in _SCOPE_BREAK.finditer(sentence, max(0, marker.start() - 4 * WINDOW), marker.start())]
        begin = breaks[-1] if breaks else 0
    clauses = []
    for estimate in _ESTIMATE.finditer(sentence):
        before = [m.end() for m in _SCOPE_BREAK.finditer(sentence, max(0, estimate.start() - WINDOW), estimate.start())]
        after = _SCOPE_BREAK.search(sentence, estimate.end(), estimate.end() + 2 * WINDOW)
        clauses.append((before[-1] if before else max(0, estimate.start() - WINDOW),
                        after.start() if after else min(len(sentence), estimate.end() + 2 * WINDOW)))
        if len(clauses) > 8:
            break
    return begin, tuple(clauses)


def _derived_ratios(sentence: str) -> tuple[set[float], set[float]]:
    """Ratios (``32x``) and shares (``50%``) that follow from the number formats the sentence
    names (float32, bfloat16, int8, 1-bit, binary; a lone format is compared with float32):
    "1-bit values instead of float32 … a 32x reduction" is arithmetic, not a measurement."""
    widths = set()
    for m in _WIDTH.finditer(sentence):
        if m.group("bits"):
            widths.add(int(m.group("bits")))
        elif m.group("glued"):
            widths.add(int(m.group("glued")))
        else:
            widths.add({"binary": 1, "float": 32, "half": 16, "single": 32, "full": 32}[m.group("word").lower().split()[0]])
    widths = {w for w in widths if w in (1, 2, 4, 8, 16, 32, 64)}
    if not widths:
        return set(), set()
    widths.add(32)
    ratios = {a / b for a in widths for b in widths if a > b}
    shares = {round(100 * b / a, 2) for a in widths for b in widths if a > b} | {
        round(100 * (1 - b / a), 2) for a in widths for b in widths if a > b}
    return ratios, shares


_BYTES = {"byte": 1, "bytes": 1, "B": 1, "kB": 1e3, "KB": 1e3, "KiB": 1024, "MB": 1e6, "MiB": 1024 ** 2,
          "GB": 1e9, "GiB": 1024 ** 3, "TB": 1e12, "TiB": 1024 ** 4, "PB": 1e15}
_SCALE = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9, "thousand": 1e3, "million": 1e6, "billion": 1e9}


def _derived_sizes(sentence: str, quantities: list[Quantity]) -> set[tuple[int, int]]:
    """Spans of memory sizes that are the product of the sentence's own numbers and the bytes
    of a number format it names ("a 768-dimensional float32 vector takes 3 KB", "1M int8
    vectors of 384 dimensions need 384 MB"): arithmetic, not a measurement (within 10%)."""
    widths = {int(m.group("glued") or m.group("bits")) for m in _WIDTH.finditer(sentence)
              if m.group("glued") or m.group("bits")}
    per_value = {w / 8 for w in widths if w in (1, 2, 4, 8, 16, 32, 64)}
    memory = [q for q in quantities if q.unit in _BYTES]
    if not per_value or not memory:
        return set()
    factors = []
    for q in quantities:
        if q.unit in _BYTES or q.is_percent or q.is_multiplier or q.value <= 0:
            continue
        after = sentence[q.span[1]:q.span[1] + 12].split()
        scale = _SCALE.get(q.unit or "", 1.0) * _SCALE.get(after[0].lower() if after else "", 1.0)
        factors.append(q.value * scale)
    products = {f for f in factors} | {a * b for i, a in enumerate(factors[:8]) for b in factors[i + 1:8]}
    out = set()
    for q in memory:
        size = q.value * _BYTES[q.unit]
        if any(abs(p * b - size) <= 0.1 * size for p in products for b in per_value):
            out.add(q.span)
    return out


def _fixed_shares(sentence: str, quantities: list[Quantity]) -> set[tuple[int, int]]:
    """Spans of numbers that fix the setup rather than report an outcome: the parts of a mixture
    (``50% positive, 50% negative``, ``50% correct pairs … with 50% random pairs``: two or more
    percentages, each describing the word after it, that add up to 100) and the two ends of a
    symmetric interval (``the range -448 to 448``: a bound by definition)."""
    out: set[tuple[int, int]] = set()
    parts = []
    for q in quantities:
        if q.is_percent and q.upper is None and q.role == "value":
            word = re.match(r"\s*([A-Za-z]+)", sentence[q.span[1]:q.span[1] + 40])
            if word and word.group(1).lower() not in _NOT_A_PART and word.group(1).lower() not in METRIC_NAMES:
                parts.append(q)
    if len(parts) >= 2 and abs(sum(q.value for q in parts) - 100) < 0.05:
        out.update(q.span for q in parts)
    shares = [q for q in quantities if q.is_percent and q.upper is None and q.role == "value"]
    if (len(shares) >= 2 and abs(sum(q.value for q in shares) - 100) < 0.05
            and _SPLIT_WORDS.search(sentence)):
        out.update(q.span for q in shares)  # "80% of the data for training and 20% for testing"
    for a, b in zip(quantities, quantities[1:]):
        if a.value < 0 and b.value == -a.value and re.fullmatch(r"\s*(?:to|and|–|,)\s*", sentence[a.span[1]:b.span[0]]):
            out.update((a.span, b.span))
    return out


def not_measured(sentence: str) -> str:
    """Why the sentence cannot state a measurement ('' when it can)."""
    if _QUESTION.search(sentence):
        return "a question"
    instruction = _INSTRUCTION.match(sentence)
    if instruction:
        return f"an instruction {instruction.group(1)!r}"
    for pattern, what in _VETOES:
        found = pattern.search(sentence)
        if found:
            return f"{what} {found.group(0)!r}"
    return ""


# The vetoes after the question, in the order they are tried.
_VETOES = ((_PLAN, "a plan"), (_DEFINITION, "a definition"), (_HEDGE, "a hedge"), (_ILLUSTRATION, "an illustration"))


def measured_cue(sentence: str, results: list[Quantity]) -> str:
    """Evidence of a measurement beyond the cues of :func:`claims.extract.classify` ('' when none)."""
    for q in results:
        start, end = q.span
        before, after = sentence[max(0, start - WINDOW):start], sentence[end:end + WINDOW]
        unit = (q.unit or "").lower().rstrip("s") if q.unit not in ("ms", "s") else q.unit
        if q.unit == "ordinal" and _RANK.search(sentence):
            return f"rank {q.text!r}"
        if unit in TIME_UNITS and _APPROX.search(before.rstrip()):
            return f"duration {q.text!r}"
        if unit in TIME_UNITS and (_RATE_AFTER.match(after) or re.search(r"\bevery\s+$", before)):
            return f"time per unit {q.text!r}"
        if _SPEED_UNIT.match(after) and not _LOAD_BEFORE.search(before):
            return f"speed {q.text!r}"
        if _BASELINE_AFTER.match(after):
            return f"comparison with a baseline {q.text!r}"
        if q.is_percent and _OF_BASELINE.search(sentence[end - 1:end + 40]):
            return f"share of a baseline {q.text!r}"
        if _WITHIN_BEFORE.search(before) and (q.is_percent or re.match(r"^\s+of\s+(?:the|a|an|its|their|our)\b", after)):
            return f"share of a baseline {q.text!r}"  # "within 15% of", "within 0.002 of the published"
        if _CORRECTNESS_AFTER.match(after):
            return f"outcome {q.text!r}"  # "labels 93 sentences correctly and 7 wrongly"
        if (q.unit or "").lower() in SPEED_NOUNS and _PER_SECOND_AFTER.match(after) and not _LOAD_BEFORE.search(before):
            return f"speed {q.text!r}"  # "2,500 passages per second"
        if q.unit in MEMORY_UNITS and re.search(r"\b(?:only|just)\s+(?:\w+\s+)?$", before, re.I):
            return f"resource use {q.text!r}"
        if q.unit in MEMORY_UNITS and _STORED_IN_BEFORE.search(before):
            return f"resource use {q.text!r}"  # "we can now store 41M embeddings in 47.5GB"
        if (q.unit in MEMORY_UNITS and _RESOURCE_AFTER.match(after)
                and not _SPEC_BEFORE.search(re.split(r"[,;:(]", before)[-1])):
            return f"resource use {q.text!r}"  # "we use 5.2GB of memory", "(…; 47.5GB of disk space)"
    if _SHARE_AFTER_COUNT.search(sentence):
        return "count with its share"
    if _PART_OF_WHOLE.search(sentence):
        return "part of a whole"
    clauses = _clauses(sentence)  # an outcome word counts for a number of its own clause only
    searched: set[int] = set()
    for q in results:
        index = bisect_left(clauses.starts_of_breaks, q.span[0])
        if index in searched:
            continue
        searched.add(index)
        outcome = _OUTCOME.search(sentence, clauses.starts[index], clauses.ends[index])
        if outcome:
            return f"outcome word {outcome.group(0)!r}"
    return ""


_CLAUSE_BREAK = re.compile(r";|\s[—–]\s|:\s")


@dataclass(frozen=True)
class _Clauses:
    """Where the clauses of a sentence (between semicolons, dashes or colons) begin and end."""
    starts_of_breaks: list[int]
    starts: list[int]
    ends: list[int]


def _clauses(sentence: str) -> _Clauses:
    """The sentence's clauses, found once: "the word counts retained here are diagnostics only;
    they do not justify converting 1,200 characters" has no outcome word in the 1,200's clause.
    A number belongs to the clause of the first break at or after its start."""
    breaks = [(m.start(), m.end()) for m in _CLAUSE_BREAK.finditer(sentence)]
    return _Clauses([start for start, _ in breaks], [0] + [end for _, end in breaks],
                    [start for start, _ in breaks] + [len(sentence)])
