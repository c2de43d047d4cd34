"""Site markup in Markdown sources: structure lines set aside before the CommonMark parse.

Real technical pages are written for a site generator, and its markup is structure, never a
claim. :func:`prepare_markdown` reads the lines of a Markdown text once (outside code fences) and
returns the text markdown-it-py should parse plus the markup it set aside, each with its line.
Every transformation keeps the line count except two (a table's end, below, and a blank line
before a glued link reference definition), so the parser's line numbers map back to the file
through ``origin``. The shapes are catalogued, each with its expected rows and set-aside lines,
in tests/data/site_shapes/catalogue.toml.

* **MkDocs / Material admonitions and content tabs**: ``!!! note "Title"``, ``??? tip``,
  ``???+ warning``, ``=== "Tab"``. The marker line is markup; the body (the following lines
  indented deeper than the marker, and blank lines between them) is dedented by four spaces so
  that its prose is read as prose, not as an indented code block.
* **MyST / Jupyter-book directives**: a backtick or colon fence whose info is ``{name}``
  (```` ```{note} ````, ``:::{figure} path``, ``::::{tab-set}``). A directive whose body is code
  or data (``{code-cell}``, ``{math}``, ``{toctree}``, ``{bibliography}``, ``{eval-rst}``, …
  :data:`CODE_DIRECTIVES`) is set aside whole as a ``code`` block named by the directive. For
  every other directive (an admonition, figure, margin, tab, card, dropdown, epigraph, or one we
  do not know: nothing is dropped) the opening and closing fence lines and the ``:option: value``
  lines right after the opener are markup and the body stays Markdown (its prose is prose, a
  figure's caption included).
* **Sphinx / reStructuredText directives** in Markdown (``.. note::``, ``.. code-block:: python``,
  ``.. _label:``): the marker line and its ``:option:`` lines are markup; a prose directive's
  indented body is dedented and read as Markdown; another directive's body is code.
* **Labels and role-only lines**: ``(label)=`` (MyST target), a line holding only roles
  (d2l ``:begin_tab:`pytorch```, ``:end_tab:``, ``:label:`sec_x```, ``{numref}`fig-x```), and a
  line holding only a bracket (a lone ``)`` left by a page template), an attribute list
  (``{: .note }``) and a snippet include (``--8<-- "file.md"``) are markup.
* **Docusaurus / MDX**: ``import X from '…';`` and ``export const …`` statements (to where their
  brackets balance) are ``code``; a line holding one capitalised component tag only
  (``<Tabs>``, ``<TabItem value="py">``, ``</TabItem>``, ``<Chart data={{a: 1}} />``, or a tag
  whose attributes run over several lines) and a ``{/* comment */}`` are markup; a component's
  body, and a component line wrapping its own text, stay Markdown.
* **Template tags** on lines of their own (Hugo shortcodes ``{{< figure … >}}``,
  ``{{% notice %}}`` … ``{{% /notice %}}``; Liquid / Jekyll / GitBook ``{% include %}``,
  ``{% hint %}`` … ``{% endhint %}``; a Liquid output ``{{ x }}``), even glued to prose: ``html``
  (note ``template``); the body of a :data:`CODE_TEMPLATES` pair (``highlight``, ``mermaid``,
  ``math`` …) is ``code``, a ``{% comment %}`` body is set aside, every other body stays Markdown.
* **kramdown and TOC markers**: ``{::comment}`` … ``{:/comment}``, ``* TOC`` + ``{:toc}``,
  ``[TOC]``, ``[[_TOC_]]``, ``[[toc]]``, ``${toc}``, abbreviation definitions ``*[HTML]: …``.
* **Callouts**: an Obsidian callout or GitHub alert marker line (``> [!tip]- Title``): the marker
  and its title are markup, the line stays an (empty) quote line so the body is the quote's prose.
* **AsciiDoc** ``[NOTE]`` + ``====`` … ``====`` (marker lines; the body is prose); **definition
  lists** ``Term`` + ``: Definition`` (the term is markup, the definition prose); a ``: caption``
  line right after a table (Pandoc's table caption) is markup.
* **Lines of emoji shortcodes or of wiki links only** (``:rocket: :tada:``, ``![[plot.png]]``,
  ``[[open-in-colab]]``) are markup; a **link reference definition** right under a paragraph
  line gets a blank line before it (CommonMark would read it as the paragraph's text).
* Page chrome (``On this page``, ``Edit this page``, ``Last updated on …``, ``Previous``, …) is
  recognised by :func:`is_chrome_line` and read as ``navigation`` by :mod:`audit.document`.
* **Flattened pages** (``line_paragraphs``): a page flattened to one paragraph per line that
  carries pipe tables or fences is parsed as Markdown with a blank line after each prose line.
* **A pipe table's end**: GFM lets a table row lack its pipes, so a prose line directly under a
  table would become a row. A line after a table that does not look like a row (it has no ``|``,
  or does not start with one when the header does) ends the table: a blank line is inserted
  before it (``origin`` maps the parser's lines back to the file's); so is one before a header +
  delimiter pair directly under a table (two tables back to back).

Nothing here decides what is a sentence; :mod:`audit.document` reads the prepared text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CODE_DIRECTIVES = frozenset("""
code code-block code-cell sourcecode literalinclude include math eval-md raw toctree
bibliography glue glue:figure glue:text image mermaid graphviz plot csv-table list-table flat-table table
tabularcolumns jupyter-execute
ipython testcode doctest program-output command-output automodule autoclass autofunction
automethod autosummary autodata autoattribute tableofcontents contents highlight only
r python python3 ipython julia bash sh shell zsh sql ojs dot js javascript typescript c cpp rust go
java ruby perl stan rcpp json yaml toml html css latex tex
""".split())
"""Directives whose body is code or data (set aside as a ``code`` block; a table directive's body is
table cells, no sentences), language chunks of R Markdown and Quarto included; every other directive's
body is prose (an admonition, figure caption, margin, tab, card, dropdown, epigraph, …), so an
unknown directive never drops a sentence."""


FIGURE_DIRECTIVES = frozenset("figure figure-md".split())
"""Directives whose body is a picture's caption and legend (MyST ``{figure}``, ``{figure-md}``, Sphinx
``.. figure::``): set aside as a ``markup`` caption (label conventions: captions are structure)."""


def is_prose_directive(name: str) -> bool:
    """Whether a directive's body is prose: not a code directive, not an R Markdown / Quarto
    chunk (```` ```{r} ````, ```` ```{python} ````), not a Pandoc class (```` ```{.python} ````)."""
    name = name.lower()
    return name not in CODE_DIRECTIVES and not name.startswith(("auto", "."))


FENCE = re.compile(r"^(?P<indent>\s{0,3})(?P<fence>`{3,}|~{3,})\s*(?P<info>.*)$")
COLON_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>:{3,})\s*(?P<info>\S.*)?$")
DIRECTIVE_INFO = re.compile(r"^\{(?P<name>[\w:.-]+)\}(?P<argument>.*)$")
KNITR_BLOCK = re.compile(r"^\{(?P<name>block2?|asis)\b[^{}]*\}\s*$")
"""An R Markdown / bookdown chunk of the ``block``, ``block2`` or ``asis`` engine (```` ```{block, type =
"rmdwarning"} ````): its body is the page's Markdown, a note box, not code."""
EVAL_RST = re.compile(r"^(?P<name>eval[_-]rst)\s*$")
"""recommonmark's ```` ```eval_rst ```` fence: reStructuredText read as the page's text, as MyST's
``{eval-rst}`` is; its Sphinx directives are read as every other (a note's body is prose, a code
directive's body code)."""
OPTION = re.compile(r"^\s*:[\w.-]+:(?:\s.*)?$")
ADMONITION = re.compile(r"^(?P<indent>\s*)(?::\s+)?(?:(?:!!!|\?\?\?\+?)\s+(?:[\w-]+|\"[^\"]*\"\s*$).*|===\+?\s+\".*)$")
"""An admonition (``!!! note``, ``??? tip "Title"``) or a content tab (``=== "Tab"``, always with a
quoted title, so a setext underline ``===`` is never one)."""
GLUED_ADMONITION = re.compile(r'^(?P<opener>\s*(?:!!!|\?\?\?\+?)\s+[\w-]+(?:\s+[\w-]+)*?\s+"[^"]*")\s+(?P<body>\S.*)$')
"""An admonition opener with a quoted title and its body on the same line (a flattened page:
``!!! tip "The real value" While building …``): the opener is markup, the body is prose."""
CAPTION_LINE = re.compile(r"^(?:Figure|Fig\.|Table)\s+\d+(?:\.\d+)*[a-z]?\s*(?::|\.|\||—|–)\s+\S(?:(?![.!?]\s+[A-Z]).)*$")
"""A caption line (``Figure 1: The late interaction …``, ``Fig. 3. Results on …``, ``Table 2 —
…``): one label, a colon (full stop, bar or dash) and one sentence at most; a caption describes a picture or table, it states no claim."""
CAPTION_START = re.compile(r"^(?:Figure|Fig\.|Table|Tab\.)\s+\d+(?:\.\d+)*[a-z]?\s*(?::|\.|\||—|–)\s+\S")
"""The label a caption opens with; after a picture in the same paragraph the caption may run to
several sentences (``Fig. 1. An overview … (Image source: …)``)."""
QUOTE_CREDIT = re.compile(r"^(?:—|–|-{1,2}|~)\s*[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,4}(?:,\s*[^.!?]{1,60})?$")
"""A quotation's credit line (``— William Faulkner, Requiem for a Nun``)."""
PHOTO_CREDIT = re.compile(r"^\W*(?:(?:Photo|Image|Picture)\s+by\s+[^.]{1,80}?\s+on\s+\w+"
                          r"|(?:Image|Figure|Photo|Picture|Illustration|Diagram|Chart|Plot|Graphic)s?\s+(?:by|courtesy\s+of)"
                          r"\s+(?:the\s+)?authors?)\W*$", re.I)
"""A picture's credit line that credits no source of a claim: a stock-photo credit (``Photo by Jane
Doe on Unsplash``) or ``Image by author``. A line naming a source (``Image source: Doe et al.,
2020``, ``Source: [the vendor's blog](…)``) stays prose: it credits someone (an attribution)."""
SPHINX = re.compile(r"^(?P<indent>\s*)\.\.\s+(?:(?P<name>[\w:.-]+)::(?P<argument>.*)|_[^:]+:.*|\|[^|]+\|\s+\w+::.*)$")
LABEL = re.compile(r"^\s*\([\w:.\-/]+\)=\s*$")
ROLE = r"(?::[\w:.-]+:|\{[\w:.-]+\})`[^`]*`"
ROLE_LINE = re.compile(rf"^\s*(?:{ROLE}[\s,;.]*)+$")
BARE_ROLE_LINE = re.compile(r"^\s*:(?:end_tab|begin_tab|label|numref|eqlabel):\S*\s*$")
STRUCTURE_ROLE = re.compile(r"(?::|\{)(?:label|eqlabel|begin_tab|end_tab|width|height|name)(?::|\})`")
"""Roles that only mark structure (d2l ``:label:``, ``:begin_tab:``, ``:width:``): a line of
them is markup. A line of reference or citation roles (``:cite:`Bridle.1990`.``,
``:numref:`fig_x```) right after a prose line continues that sentence (d2l wraps one clause
per line): it stays prose, so the citation and the full stop stay in the sentence."""
BRACKET_LINE = re.compile(r"^\s*[()\[\]{}]\s*$")
ATTRIBUTE_LINE = re.compile(r"^\s*\{:[^}]*\}\s*$|^\s*\^{3,}\s*$|^\s*\{\s*[.#][\w-]+(?:\s+[.#]?[\w-]+(?:=\S+)?)*\s*\}\s*$|^\s*-{2}8<-{2}\s+\S.*$|^\+\+\+(?:\s*\{.*\})?\s*$")
"""A kramdown/Python-Markdown attribute list on its own line (``{: .note }``, attr_list's
``{ .annotate }``), a sphinx-design card's header rule ``^^^``, a pymdownx
snippet include (``--8<-- "file.md"``) or a MyST notebook cell break (``+++``, ``+++ {"k": 1}``)."""
PAGE_VARIABLE = re.compile(r"^@def\s+[A-Za-z_]\w*\s*=")
"""A Franklin.jl page variable (``@def title = "…"``, ``@def rss_pubdate = Date(2021, 12, 08)``), the
Julia blogs' front matter: read by the site, never shown."""
QUOTED_ATTRIBUTES = re.compile(r"^(?P<quote>\s{0,3}(?:>[ \t]?)+)(?P<attributes>\{:[^{}]*\})\s*$")
"""A kramdown attribute list inside a block quote (``> {: .output}``): Jekyll lessons (the
Carpentries) put their code and its output in quoted boxes, each fence followed by its class."""
DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")

# Site generators' template and component lines (the shape catalogue,
# tests/data/site_shapes/catalogue.toml). Each is matched on a whole line outside code fences.
MDX_IMPORT = re.compile(r"""^import\s+(?:[\w$*{}\s,]+?\s+from\s+)?(['"])[^'"]+\1\s*;?\s*$""")
"""An MDX ``import X from '@theme/Tabs';`` (or ``import {a, b} from "x"``, ``import 'x';``) line."""
MDX_EXPORT = re.compile(r"^export\s+(?:const|let|var|function|default|async\s+function|class)\b")
"""An MDX ``export const x = …`` statement: its lines to where its brackets balance."""
JSX_TAG_LINE = re.compile(r"^\s*(?:<[A-Z][\w.]*(?:\s[^<]*?)?/?>|</[A-Z][\w.]*\s*>)\s*$")
"""A line holding one JSX component tag only: ``<Tabs groupId="x">``, ``</TabItem>``,
``<DocCardList />``, ``<Chart data={{a: [1, 2]}} />`` (capitalised, as MDX components are);
a component line that wraps its own text (``<TabItem …>Text.</TabItem>``) is not one."""
JSX_WRAPPED = re.compile(r"^\s*<[A-Z][\w.]*(?:\s[^<>]*)?>.*</[A-Z][\w.]*\s*>\s*$")
"""A component line wrapping its own text (``<TabItem value="mac">Text.</TabItem>``): a paragraph
of its own, never glued to the line above."""
JSX_TAG_START = re.compile(r"^\s*<[A-Z][\w.]*(?:\s[^<>]*)?$")  # matched with "=>" (an arrow in a prop) removed
"""A JSX component tag opened on this line and closed on a later one (attributes one per line)."""
MDX_COMMENT_START = re.compile(r"^\s*\{/\*")
TEMPLATE_OPEN = re.compile(r"^\s*(?:\{\{[<%]|\{%)")
TEMPLATE_LINE = re.compile(r"^\s*(?:(?:\{\{[<%](?:(?![%>]\}\}).)*[%>]\}\}|\{%(?:(?!%\}).)*%\}|\{\{(?![<%])[^{}]*\}\})\s*)+$")
"""A line of template tags only: Hugo shortcodes ``{{< figure … >}}``, ``{{% notice tip %}}``,
``{{< /notice >}}``; Liquid / Jekyll / GitBook tags ``{% include x.html %}``, ``{% hint %}``,
``{% endhint %}``; a Liquid output ``{{ site.title }}`` alone."""
TEMPLATE_NAME = re.compile(r"^\s*(?:\{\{[<%]\s*/?\s*|\{%-?\s*)(?P<name>[\w.-]+)")
CODE_TEMPLATES = frozenset("highlight code mermaid katex math chart plotly rawhtml html echarts "
                           "diagram plantuml graphviz".split())
"""Paired shortcodes / Liquid tags whose body is code or data: ``{{< highlight go >}}`` …
``{{< /highlight >}}``, ``{% highlight python %}`` … ``{% endhighlight %}``; the body of every
other paired tag (``notice``, ``details``, ``hint``, ``tab``, ``raw`` …) stays Markdown. A
``{% comment %}`` … ``{% endcomment %}`` body is a comment: set aside."""
KRAMDOWN_COMMENT = re.compile(r"^\s*\{::comment\}")
TOC_MARKER = re.compile(r"^\s*(?:\[\[?_*toc_*\]\]?|\$\{toc\}|\[\[_TOC_\]\])\s*$", re.I)
"""A table-of-contents marker: Python-Markdown ``[TOC]``, GitLab ``[[_TOC_]]``, VuePress
``[[toc]]``, ``[__TOC__]``, ``${toc}``."""
KRAMDOWN_TOC = re.compile(r"^\s*\{::?\s*toc\s*\}\s*$")
CALLOUT = re.compile(r"^(?P<quote>\s{0,3}(?:>\s?)+)\[!(?P<type>[A-Za-z][\w-]*)\][+-]?(?P<title>.*)$")
"""A GitHub alert or Obsidian callout marker line, ``> [!NOTE]``, ``> [!tip]- Title``: the marker
and its title are markup, the quote's body is prose."""
ABBREVIATION = re.compile(r"^\*\[[^\]]+\]:\s+\S.*$")
"""An abbreviation definition (PHP Markdown Extra, kramdown, MkDocs ``abbr``): ``*[HTML]: Hyper Text …``."""
WIKI_LINE = re.compile(r"^\s*(?:!?\[\[[^\[\]]+\]\][\s·|,;/-]*)+$")
"""A line of wiki links or embeds only: Obsidian ``![[plot.png]]``, ``[[Setup]] · [[Results]]``,
Hugging Face doc-builder's ``[[open-in-colab]]`` marker."""
TAG_LINE = re.compile(r"^\s*(?:#[A-Za-z][\w/-]*[\s,]*)+$")
"""A line of Obsidian / Bear tags only (``#retrieval #bm25``; a heading has a space after its ``#``)."""
OBSIDIAN_COMMENT = re.compile(r"^\s*%%")
"""An Obsidian comment ``%%…%%`` opening a line: set aside to where it closes."""
EMOJI_LINE = re.compile(r"^\s*(?::[a-z0-9_+-]+:\s*)+$")
"""A line of emoji shortcodes only (``:rocket: :tada:``)."""
ASCIIDOC_ADMONITION = re.compile(r"^\s*\[(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$")
ASCIIDOC_DELIMITER = re.compile(r"^\s*={4,}\s*$")
DEFINITION = re.compile(r"^:(?P<gap>\s{1,4})(?P<rest>\S.*)$")
"""A definition-list line (Pandoc, kramdown, PHP Markdown Extra) ``: The share of …`` under its
term; right after a table it is a Pandoc table caption instead."""
LIQUID_OUTPUT = re.compile(r"(?<=\S) ?\{\{ *[A-Za-z_][\w.\[\]'\"-]*(?: *\| *[\w: '\"-]+)* *\}\}(?= |[.,;:!?)]|$)")
"""A Liquid output inside a prose line (``use the {{ site.sched.name }} status commands``): the site
prints a configured value the source does not hold; it is removed from the sentence (the corpus
labels read the page without it), the line kept."""
LIQUID_IN_LINK = re.compile(r"(\]\(\s*)\{\{([^{}]*)\}\}")
"""A Liquid variable opening a link target (``]({{ site.baseurl }}/img.png)``): its spaces would
end the target, so the link would be read as text; they are removed (same line, same length or
shorter)."""
FINE_PRINT = re.compile(r"^\s{0,3}<(?:sup|sub|small)>", re.I)
"""A line opening fine print (``<sup>Measured on …</sup>``, ``<sub> **Glossary:**``): it starts a
paragraph of its own, not the continuation of the line above."""
CODE_LINE = re.compile(r"^\s{0,3}`[^`]+`\s*$")
"""A line of one inline code span (a formula or command shown under the sentence that names it)."""
REFERENCE_DEFINITION = re.compile(r"""^\s{0,3}\[(?!\^)[^\]]+\]:\s*<?\S+?>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*$""")
"""A link reference definition ``[bm25]: https://… "Title"`` (a footnote's ``[^1]:`` is not one)."""
PANDOC_CAPTION = re.compile(r"^(?::|Table:)\s+\S")


@dataclass(frozen=True)
class Markup:
    """A structure line (or a directive's code body) set aside, in file lines (1-based, inclusive)."""

    kind: str      # "markup" (a marker line), "code" (a non-prose directive's extent), "html" (a template tag)
    text: str
    line: int
    end_line: int
    note: str      # which rule: admonition, directive, sphinx, label, role, bracket


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _dedent(line: str, width: int) -> str:
    if not line.strip():
        return ""
    return line[min(width, _indent(line)):]


def _looks_like_row(line: str, leading_pipe: bool) -> bool:
    stripped = line.strip()
    if not stripped:
        return False
    return stripped.startswith("|") if leading_pipe else "|" in stripped


def prepare_markdown(text: str, line_paragraphs: bool = False) -> tuple[str, list[int], list[Markup]]:
    """``(prepared text, origin, markup)``: ``origin[i]`` is the 1-based file line of prepared line
    ``i`` (0-based); ``markup`` lists what was set aside (module docstring). With
    ``line_paragraphs`` (a flattened page: one paragraph per line, no blank lines), a blank line is
    inserted after every line outside code, tables and directive bodies, so that each line is a
    block of its own as the flattened convention says."""
    lines = text.split("\n")
    out: list[str] = []
    origin: list[int] = []
    markup: list[Markup] = []
    fence: str | None = None                 # an open ordinary code fence (its marker)
    directives: list[str] = []               # open prose directive fences (their markers)
    bodies: list[int] = []                   # open admonition bodies: the raw indent of their marker
    table_pipe: bool | None = None           # inside a pipe table: whether its header starts with "|"
    state = {"after_table": False, "asciidoc": 0, "components": []}  # a table just ended; open AsciiDoc
    # blocks; open MDX components, each [name, the indentation of its body or None until seen]
    index = 0

    def emit(line: str, number: int) -> None:
        out.append(line)
        origin.append(number)

    if lines and lines[0].strip() == "---":  # YAML front matter: left to the parser's plugin
        end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
        if end is not None:
            for i in range(end + 1):
                emit(lines[i], i + 1)
            index = end + 1

    def aside(kind: str, text: str, first: int, last: int, note: str) -> None:
        markup.append(Markup(kind, text, first, last, note))
        for n in range(first, last + 1):
            emit("", n)

    while index < len(lines):
        raw = lines[index]
        number = index + 1
        while bodies and raw.strip() and _indent(raw) <= bodies[-1]:
            bodies.pop()
        width = bodies[-1] + 4 if bodies else 0  # a body is indented four past its marker
        line = _body_line(raw, width)
        for component in state["components"]:  # an MDX component's body: indentation is no code in MDX
            if line.strip() and fence is None:
                if component[1] is None:
                    component[1] = _indent(line)
                line = _dedent(line, component[1])
        if fence is not None:
            emit(line, number)
            if _closes(line, fence):
                fence = None
            index += 1
            continue
        if table_pipe is not None:
            following = _body_line(lines[index + 1], width) if index + 1 < len(lines) else ""
            if _looks_like_row(line, table_pipe) and _is_delimiter(following):
                emit("", number - 1)  # a header + delimiter pair right under a table: a new table
                emit(line, number)
                emit(following, number + 1)
                table_pipe = line.strip().startswith("|")
                index += 2
                continue
            if _looks_like_row(line, table_pipe):
                emit(line, number)
                index += 1
                continue
            table_pipe = None
            state["after_table"] = True
            if line.strip():
                emit("", number - 1)  # end the table before a prose line (GFM would take it in)
        opened = FENCE.match(line) or COLON_FENCE.match(line)
        if opened:
            marker = opened.group("fence")
            info = (opened.group("info") or "").strip()
            directive = DIRECTIVE_INFO.match(info) or EVAL_RST.match(info) or KNITR_BLOCK.match(info)
            colon = marker[0] == ":"
            if colon and info and not directive:  # a Pandoc/Quarto div: ::: {.callout-note}, ::: note
                directive = re.match(r"^\{?\s*(?P<name>[\w:.#-]+)", info)
            prose = directive is not None and (
                is_prose_directive(directive.group("name")) if not colon
                else directive.group("name").lower().lstrip(".") not in CODE_DIRECTIVES)
            if prose:
                name = directive.group("name")
                aside("markup", line.strip(), number, number, f"directive {{{name}}}")
                index += 1
                while index < len(lines) and OPTION.match(lines[index]):
                    aside("markup", lines[index].strip(), index + 1, index + 1, f"directive {{{name}}} option")
                    index += 1
                if name.lower() == "glossary":  # terms at the margin, each definition indented under it
                    end = next((i for i in range(index, len(lines)) if _closes(_body_line(lines[i], width), marker)), None)
                    if end is not None:
                        for j in range(index, end):
                            body = _body_line(lines[j], width)
                            if body.strip() and not _indent(body):
                                aside("markup", body.strip(), j + 1, j + 1, "glossary term")
                            else:
                                emit(body.strip(), j + 1)
                        aside("markup", lines[end].strip(), end + 1, end + 1, "directive end")
                        index = end + 1
                        continue
                if not colon and name.lower() in FIGURE_DIRECTIVES or colon and name.lower().lstrip("{") in FIGURE_DIRECTIVES:
                    end = next((i for i in range(index, len(lines)) if _closes(_body_line(lines[i], width), marker)), None)
                    if end is not None:  # a figure's body is its caption and legend: no sentences of the text
                        if end > index:
                            aside("markup", "\n".join(lines[index:end]).strip(), index + 1, end, "caption")
                        aside("markup", lines[end].strip(), end + 1, end + 1, "directive end")
                        index = end + 1
                        continue
                directives.append(marker)
                continue
            if directive:  # a directive whose body is not prose: code, named by the directive
                end = next((i for i in range(index + 1, len(lines))
                            if _closes(_body_line(lines[i], width), marker)), len(lines) - 1)
                aside("code", "\n".join(lines[index:end + 1]), number, end + 1,
                      f"directive {{{directive.group('name')}}}")
                index = end + 1
                continue
            if not info and directives and _closes(line, directives[-1]):
                directives.pop()
                aside("markup", line.strip(), number, number, "directive end")
                index += 1
                continue
            if colon and not info:  # a closing ::: without an opener we know: still markup
                aside("markup", line.strip(), number, number, "directive end")
                index += 1
                continue
            if marker[0] != ":":
                fence = marker
                emit(line, number)
                index += 1
                continue
        glued = GLUED_ADMONITION.match(line)
        if glued and len(glued.group("body").split()) >= 3:  # a flattened page: title, then body
            markup.append(Markup("markup", glued.group("opener").strip(), number, number, "admonition"))
            emit(glued.group("body"), number)
            index += 1
            continue
        if ADMONITION.match(line):
            aside("markup", line.strip(), number, number, "tab" if line.lstrip().startswith("===") else "admonition")
            bodies.append(_marker_column(raw))
            index += 1
            continue
        site = _site_markup(lines, index, line, width, state, out)
        if site is not None:
            for kind, first, last, note, keep in site:
                if keep is None:
                    aside(kind, "\n".join(lines[first - 1:last]).strip(), first, last, note)
                else:  # the line stays, rewritten (a callout's quote marker, a definition's text)
                    if kind:
                        markup.append(Markup(kind, lines[first - 1].strip(), first, last, note))
                    emit(keep, first)
                    if line_paragraphs and keep.strip():
                        emit("", first)
            index = site[-1][2]
            continue
        sphinx = SPHINX.match(line)
        if sphinx:
            index = _sphinx(lines, index, sphinx, line, width, aside, emit, markup.append)
            continue
        continues = (ROLE_LINE.match(line) and not STRUCTURE_ROLE.search(line) and out and out[-1].strip()
                     and origin[-1] == number - 1 and not out[-1].lstrip().startswith(("#", "|")))
        if not continues and (LABEL.match(line) or ROLE_LINE.match(line) or BARE_ROLE_LINE.match(line)):
            aside("markup", line.strip(), number, number, "label" if LABEL.match(line) else "role")
            index += 1
            continue
        if BRACKET_LINE.match(line):
            aside("markup", line.strip(), number, number, "bracket")
            index += 1
            continue
        if ATTRIBUTE_LINE.match(line):
            aside("markup", line.strip(), number, number, "attributes")
            index += 1
            continue
        if PAGE_VARIABLE.match(line):  # Franklin.jl "@def title = \"\"\"…\"\"\"": the page's variables, never shown
            last = index
            if line.count('"""') == 1:  # a triple-quoted value running over lines
                last = next((j for j in range(index + 1, len(lines)) if '"""' in lines[j]), index)
            aside("markup", "\n".join(lines[index:last + 1]).strip(), number, last + 1, "page variable")
            index = last + 1
            continue
        quoted = QUOTED_ATTRIBUTES.match(line)
        if quoted:  # "> {: .language-bash}" under a fence in a quote (a Carpentries lesson's challenge box)
            markup.append(Markup("markup", quoted.group("attributes"), number, number, "attributes"))
            emit(quoted.group("quote").rstrip(), number)  # the quote goes on, as an empty quote line
            index += 1
            continue
        if TABLE_CAPTION.match(line) and not (out and out[-1].strip()) and _table_follows(lines, index + 1, width):
            aside("markup", line.strip(), number, number, "caption")  # Table: (\#tab:x)Recall at three depths.
            index += 1
            continue
        simple = _simple_table(lines, index, width) if not (out and out[-1].strip()) else None
        if simple:  # a Pandoc simple table (knitr::kable): read as the pipe table it is
            for offset, row in enumerate(simple):
                emit(row, number + offset)
            index += len(simple)
            state["after_table"] = True
            continue
        if "|" in line and index + 1 < len(lines):
            delimiter = _body_line(lines[index + 1], width)
            if _is_delimiter(delimiter):
                table_pipe = line.strip().startswith("|")
                emit(line, number)
                emit(delimiter, number + 1)
                index += 2
                continue
        if "](" in line and "{{" in line:  # ]({{ site.baseurl }}/a.png): a Liquid variable in a link target
            line = LIQUID_IN_LINK.sub(lambda m: m.group(1) + "{{" + "".join(m.group(2).split()) + "}}", line)
        elif "{{" in line and LIQUID_OUTPUT.search(line) and LIQUID_OUTPUT.sub("", line).strip():
            line = LIQUID_OUTPUT.sub("", line)  # "use the {{ site.sched.name }} status commands": the site's value, unknown
        if REFERENCE_DEFINITION.match(line) and out and out[-1].strip():
            emit("", number - 1)  # a link reference definition cannot interrupt a paragraph in CommonMark
        elif out and out[-1].strip() and origin[-1] == number - 1 and JSX_WRAPPED.match(line):
            emit("", number - 1)  # <TabItem value="mac">Text.</TabItem> under another: a paragraph of its own
        elif out and out[-1].strip() and origin[-1] == number - 1 and not _in_container(out[-1]) and (
                FINE_PRINT.match(line) or (CODE_LINE.match(line) and re.search(r"[.:!?]\s*$", out[-1])
                                           and not (lines[index + 1].strip() if index + 1 < len(lines) else ""))):
            emit("", number - 1)  # <sup>fine print</sup> or a lone `formula` line under a sentence: a block of its own
        emit(line, number)
        if line_paragraphs and line.strip():
            emit("", number)
        index += 1
    return "\n".join(out), origin, markup


Aside = tuple[str, int, int, str, "str | None"]


def _site_markup(lines: list[str], index: int, line: str, width: int, state: dict, out: list[str]
                 ) -> list[Aside] | None:
    """Template, component and callout markup of site generators at ``lines[index]`` (``line`` is
    it with an enclosing admonition's indentation removed): a list of ``(kind, first, last, note,
    keep)`` in 1-based file lines, the last entry's ``last`` being the last line consumed; ``keep``
    None sets the lines aside, a string is the line's text for the parser instead. None when the
    line is no such markup. Nothing with prose in it is set aside: a marker's body stays Markdown."""
    number = index + 1
    stripped = line.strip()
    after_table, state["after_table"] = state["after_table"], state["after_table"] and not stripped
    if not stripped:
        return None
    previous = out[-1].strip() if out else ""

    def following(i: int) -> str:
        return _body_line(lines[i], width) if i < len(lines) else ""

    def until(first: int, closed, limit: int = 40) -> int:
        """The 0-based index of the first line from ``first`` on for which ``closed`` holds
        (``first`` itself when none does within ``limit`` lines or before a blank line)."""
        for i in range(first, min(len(lines), first + limit)):
            if i > first and not lines[i].strip():
                break
            if closed(following(i)):
                return i
        return first

    if after_table and PANDOC_CAPTION.match(stripped):
        return [("markup", number, number, "caption", None)]
    if line.startswith(("import ", "export ")) and not line.startswith(("import  ", "export  ")):
        if MDX_IMPORT.match(line):
            return [("code", number, number, "mdx import", None)]
        if MDX_EXPORT.match(line):
            depth, end = 0, index
            for i in range(index, min(len(lines), index + 200)):
                if i > index and not lines[i].strip():
                    break
                depth += sum(lines[i].count(c) for c in "([{") - sum(lines[i].count(c) for c in ")]}")
                end = i
                if depth <= 0:
                    break
            return [("code", number, end + 1, "mdx export", None)]
    if MDX_COMMENT_START.match(line):
        end = next((i for i in range(index, min(len(lines), index + 40)) if "*/}" in lines[i]), None)
        if end is not None:
            return [("markup", number, end + 1, "mdx comment", None)]
    if JSX_TAG_LINE.match(line):
        tag = re.match(r"^\s*<(/?)([A-Z][\w.]*)", line)
        if tag and tag.group(1):  # </Card>: close it (and anything left open inside it)
            names = [c[0] for c in state["components"]]
            if tag.group(2) in names:
                del state["components"][len(names) - 1 - names[::-1].index(tag.group(2)):]
        elif tag and not stripped.endswith("/>"):
            state["components"].append([tag.group(2), None])
        return [("markup", number, number, "component", None)]
    if JSX_TAG_START.match(line.replace("=>", "")) and "=" not in stripped.split()[0]:
        end = until(index + 1, lambda text: text.rstrip().endswith(">") and "<" not in text)
        if end > index:
            if not lines[end].rstrip().endswith("/>"):
                state["components"].append([stripped[1:].split()[0], None])
            return [("markup", number, end + 1, "component", None)]
    if TEMPLATE_OPEN.match(line):
        end = index
        if not TEMPLATE_LINE.match(line):  # a tag continued on the next lines: {{< figure\n src=… >}}
            end = until(index + 1, lambda text: bool(re.search(r"[%>]\}\}\s*$|%\}\s*$", text)))
            if end == index or not TEMPLATE_LINE.match(" ".join(lines[index:end + 1])):
                return None
        name = TEMPLATE_NAME.match(line)
        name = name.group("name").lower() if name else ""
        if name in CODE_TEMPLATES or name == "comment":
            closer = re.compile(r"^\s*(?:\{%-?\s*end" + re.escape(name) + r"\b.*%\}|\{\{[<%]\s*/\s*"
                                + re.escape(name) + r"\s*[%>]\}\})\s*$")
            close = next((i for i in range(end + 1, len(lines)) if closer.match(lines[i])), None)
            if close is not None:
                body = [("code" if name != "comment" else "html", end + 2, close, f"template {name}", None)]
                return ([("html", number, end + 1, "template", None)] + (body if close > end + 1 else [])
                        + [("html", close + 1, close + 1, "template", None)])
        return [("html", number, end + 1, "template", None)]
    if KRAMDOWN_COMMENT.match(line):
        close = next((i for i in range(index, len(lines)) if "{:/comment}" in lines[i] or "{:/}" in lines[i]), None)
        if close is not None:
            return [("markup", number, close + 1, "kramdown comment", None)]
    if WIKI_LINE.match(line) and not TOC_MARKER.match(line):
        return [("markup", number, number, "wiki links", None)]
    if TOC_MARKER.match(line):
        return [("markup", number, number, "toc", None)]
    if re.match(r"^\s*(?:[-*+]|1\.)\s+\S.*$", line) and KRAMDOWN_TOC.match(following(index + 1)):
        return [("markup", number, number + 1, "toc", None)]
    callout = CALLOUT.match(line)
    if callout:
        title = callout.group("title").strip()
        if title and (len(title.split()) > 8 or title.endswith((".", "!", "?"))):
            # a sentence after the marker (GitHub shows it as body text) stays prose; a short
            # title (Obsidian's "> [!tip]- Faster builds") is markup
            return [("markup", number, number, "alert", callout.group("quote").rstrip() + " " + title)]
        return [("markup", number, number, "alert", callout.group("quote").rstrip())]
    if ABBREVIATION.match(line):
        return [("markup", number, number, "abbreviation", None)]
    if TAG_LINE.match(line) and not previous:
        return [("markup", number, number, "tags", None)]
    if OBSIDIAN_COMMENT.match(line):  # %%one line%%, or a block from a line "%%" to the next line "%%"
        end = (index if len(stripped) > 4 and stripped.endswith("%%") else
               next((i for i in range(index + 1, min(len(lines), index + 40)) if lines[i].strip() == "%%"), None)
               if stripped == "%%" else None)
        if end is not None:
            return [("markup", number, end + 1, "comment", None)]
    if EMOJI_LINE.match(line) and not BARE_ROLE_LINE.match(line):
        return [("markup", number, number, "emoji", None)]
    if ASCIIDOC_ADMONITION.match(line) and ASCIIDOC_DELIMITER.match(following(index + 1)):
        state["asciidoc"] += 1
        return [("markup", number, number + 1, "asciidoc admonition", None)]
    if state["asciidoc"] and ASCIIDOC_DELIMITER.match(line):
        state["asciidoc"] -= 1
        return [("markup", number, number, "asciidoc admonition", None)]
    definition = DEFINITION.match(following(index + 1))
    if (definition and not definition.group("rest").startswith(("!!!", "???", "===")) and len(stripped.split()) <= 8
            and not stripped.endswith((".", "!", "?", ":")) and not stripped.startswith(("#", "|", ">", "<", "-", "*"))
            and not previous):
        return [("markup", number, number, "definition term", None),
                ("", number + 1, number + 1, "", definition.group("rest"))]
    return None


TABLE_CAPTION = re.compile(r"^\s{0,3}(?:Table)?:\s+\S")
"""A Pandoc table caption, ``Table: Recall at three depths`` or ``: Recall at three depths {#tbl-x}``."""
SIMPLE_RULE = re.compile(r"^\s*-{2,}(?:[ \t]+-{2,})+\s*$")
"""The dashed line under a Pandoc simple table's header (``------  -------``): one run of dashes
per column (CommonMark would read it as a thematic break and the rows as paragraphs or code)."""


def _simple_table(lines: list[str], index: int, width: int) -> list[str] | None:
    """A Pandoc simple table at ``lines[index]`` (its header, then :data:`SIMPLE_RULE`, then rows up to a
    blank line), rewritten as pipe-table lines, one per source line; None when there is none. A
    column's cells are cut where the dashes of the column before it end (right-aligned numbers
    stand under their dashes, left-aligned text starts at them)."""
    header = _body_line(lines[index], width)
    rule = _body_line(lines[index + 1], width) if index + 1 < len(lines) else ""
    if not header.strip() or "|" in header or not SIMPLE_RULE.match(rule):
        return None
    rows = []
    for j in range(index + 2, len(lines)):
        row = _body_line(lines[j], width)
        if not row.strip():
            break
        rows.append(row)
    if not rows:
        return None
    ends = [m.end() for m in re.finditer(r"-+", rule)]
    bounds = [0] + ends[:-1] + [None]

    def piped(text: str) -> str:
        cells = [text[a:b].strip() if b is not None else text[a:].strip() for a, b in zip(bounds, bounds[1:])]
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return [piped(header), "|" + "---|" * len(ends)] + [piped(row) for row in rows]


def _table_follows(lines: list[str], index: int, width: int) -> bool:
    """A table (a pipe header with its delimiter, or a simple table) starts at ``lines[index]``, after
    at most one blank line: the line above is its Pandoc caption."""
    if index < len(lines) and not lines[index].strip():
        index += 1
    if index + 1 >= len(lines):
        return False
    head, below = _body_line(lines[index], width), _body_line(lines[index + 1], width)
    return ("|" in head and _is_delimiter(below)) or (bool(head.strip()) and bool(SIMPLE_RULE.match(below)))


def _in_container(line: str) -> bool:
    """The line belongs to a list item or a quote (a blank line inserted under it would end it)."""
    return bool(re.match(r"^\s*(?:[-*+]\s|\d+[.)]\s|>)", line)) or line.startswith(("  ", "\t"))


def _is_delimiter(line: str) -> bool:
    """A table delimiter row, matched on the stripped line (linear time on long space runs)."""
    return "-" in line and bool(DELIMITER.match(line.strip()))


def _closes(line: str, marker: str) -> bool:
    """``line`` closes a fence opened with ``marker`` (same character, at least as long, no info)."""
    stripped = line.strip()
    return (len(stripped) >= len(marker) and set(stripped) == {marker[0]}
            and _indent(line) <= 3 + (0 if marker[0] != ":" else 1000))


def _body_line(line: str, width: int) -> str:
    """The line with up to ``width`` columns of indentation removed (an admonition body's)."""
    return _dedent(line, width) if width else line


def _marker_column(raw: str) -> int:
    """The column of an admonition marker: its indentation, or past a definition-list ``:   ``
    (``:   !!! note`` has its body indented eight)."""
    match = re.match(r"^(\s*(?::\s+)?)", raw)
    return len(match.group(1)) if match else 0


SPHINX_ADMONITIONS = frozenset("note tip hint important warning caution danger attention error seealso todo".split())
"""Sphinx directives whose text on the marker line starts the body (``.. note:: The index is exact.``):
that text is prose, the marker markup (``versionadded:: 2.0`` takes a version there: not one)."""


def _sphinx(lines: list[str], index: int, match: re.Match[str], line: str, depth: int, aside, emit,
            aside_line) -> int:
    # depth: the columns of indentation an enclosing admonition body removes
    """A ``.. name::`` directive (or a ``.. _label:`` target) at ``lines[index]``; returns the next index."""
    number = index + 1
    name = (match.group("name") or "").lower()
    indent = _indent(line)
    argument = (match.group("argument") or "").strip()
    if name in SPHINX_ADMONITIONS and argument:  # .. note:: The flat index is exact.: the text is the body
        marker = line.strip()[:len(line.strip()) - len(argument)].rstrip()
        aside_line(Markup("markup", marker, number, number, "sphinx"))
        emit(argument, number)
    else:
        aside("markup", line.strip(), number, number, "sphinx")
    i = index + 1
    while i < len(lines) and OPTION.match(lines[i]) and _indent(_body_line(lines[i], depth)) > indent:
        aside("markup", lines[i].strip(), i + 1, i + 1, "sphinx option")
        i += 1
    end = i
    while end < len(lines) and (not lines[end].strip() or _indent(_body_line(lines[end], depth)) > indent):
        end += 1
    while end > i and not lines[end - 1].strip():
        end -= 1
    body = [_body_line(lines[j], depth) for j in range(i, end)]
    if name in FIGURE_DIRECTIVES:  # .. figure:: path: its body is the caption and legend
        if end > i:
            aside("markup", "\n".join(body).strip(), i + 1, end, "caption")
        return end
    if not name or is_prose_directive(name):
        width = min((_indent(b) for b in body if b.strip()), default=0)
        for j, b in zip(range(i, end), body):
            emit(_dedent(b, width), j + 1)
        return end
    if end > i:
        aside("code", "\n".join(body), i + 1, end, f"sphinx {name}")
    return end


CHROME = re.compile(r"^(?:on this page|in this (?:article|page|section)|edit (?:this page|on github)(?: on github)?"
                    r"|view (?:page )?source|was this (?:page|article) helpful\??|last (?:updated|modified)(?: on| at|:)?"
                    r" [\w ,:./-]{4,40}|(?:« ?|‹ ?)?(?:previous|next)(?: page| post| article)?(?: ?»| ?›)?"
                    r"|back to top|skip to (?:main )?content|copy page|share this (?:page|post|article)"
                    r"|print this page|report an issue|suggest an? edit|\d+ min(?:ute)?s? read|(?:table of )?contents"
                    r"|reading time: [\w ]{1,20}|share on (?:twitter|x|linkedin|facebook|mastodon|bluesky)"
                    r"|(?:show|hide|copy) (?:code|source)|click to expand|download (?:python source code|jupyter "
                    r"notebook|zipped)[^.]*|gallery generated by sphinx-gallery|(?:tags|categories|filed under)"
                    r": [\w ,#/-]{1,60})$", re.I)
"""A site template's chrome flattened into the page: ``On this page``, ``Edit this page``,
``Was this page helpful?``, ``Last updated on Mar 3, 2024``, ``Previous`` / ``Next``,
``Back to top``, ``5 min read``, ``Tags: search, index``, Sphinx-Gallery's download lines (the whole paragraph; a colon-ended lead-in such as
``Table of contents:`` stays prose)."""


def is_chrome_line(text: str) -> bool:
    """Whether a paragraph is only site chrome (:data:`CHROME`); a byline (``By Jane Doe, Engineer``)
    is not chrome: the corpus labels read it as a sentence."""
    text = " ".join(text.split())
    return len(text) <= 60 and bool(CHROME.match(text)) and not text.endswith(".")


_BREADCRUMB = re.compile(r" / ")


_NAV_SEPARATOR = re.compile(r" (?:·|\||»|›|•) ")  # on whitespace-collapsed text: linear time


def is_navigation_line(text: str) -> bool:
    """A breadcrumb, tab bar or byline flattened to one line: two or more items of at most eight
    words each (numbers and symbols not counted), joined by `` · ``, `` | ``, `` » ``, `` › `` or `` • `` (or three or more
    capitalised items joined by `` / ``: ``Docs / Guides / Evaluation``), no item ending in
    sentence punctuation (``Exact method · Pre-outcome freeze · Score inputs · Selections``,
    ``Published May 1, 2024 · Update on GitHub``)."""
    collapsed = " ".join(text.split())
    items = _NAV_SEPARATOR.split(collapsed)
    if len(items) < 2:  # a path breadcrumb: three or more capitalised items (Docs / Guides / Evaluation)
        items = _BREADCRUMB.split(collapsed)
        if len(items) < 3 or not all(item[:1].isupper() for item in items):
            return False
    return (len(items) >= 2 and all(item and len(re.findall(r"[A-Za-z][\w'’-]*", item)) <= 8 for item in items)
            and not any(re.search(r"[.!?;:]$|[.!?;]\s", item) for item in items[1:])
            and not re.search(r"[.!?;]$|[.!?;]\s", items[0]))  # a first item may be a label: "Glossary: | DP = …"
