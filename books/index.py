"""The book's index: ``index.md`` and a static, self-contained ``index.html``.

One row per chapter, in book order: number, title, file, fingerprint (and its status), the
chapter's status (the most serious of its counts, :data:`books.chapter.STATUSES`), whether it
changed since the previous pass (with old and new fingerprints), the counts (contradicted,
unverified, unrun, retracted, inconsistent, unchecked) and the link to its report.

``index.html`` needs no server and fetches nothing: inline CSS and JavaScript only, and a
Content-Security-Policy of ``default-src 'none'`` so a browser refuses any outside request.
The rows are in the HTML itself (readable without JavaScript); the script only sorts (click a
column heading) and filters (text box, status and change menus; ``index.html#q=TEXT`` opens it filtered). Each chapter's counts are drawn
as small inline SVG bars on one scale for the whole book. Every text from a chapter or a file
name is escaped (:func:`html.escape`); links are relative and point only at the reports written
in the same pass.
"""

from __future__ import annotations

import html
from typing import Any

from books.chapter import COUNTS, STATUSES

COUNT_HEADINGS = {"contradicted": "Contradicted", "unverified": "Unverified", "unrun": "Unrun",
                  "retracted": "Retracted", "inconsistent": "Inconsistent", "unchecked": "Unchecked"}
INDEX_COUNTS = ("contradicted", "unverified", "unrun", "retracted", "inconsistent", "unchecked")
BAR_COLOURS = {"contradicted": "#c0392b", "unverified": "#7f8c8d", "unrun": "#e67e22",
               "retracted": "#8e44ad", "inconsistent": "#d35400", "unchecked": "#2c3e50"}
assert set(INDEX_COUNTS) == set(COUNTS)


def _md(text: Any) -> str:
    """A Markdown table cell: no pipe, newline, HTML or link syntax can form."""
    out = str(text)
    for char in ("\\", "|", "[", "]", "<", ">", "`", "*", "_"):
        out = out.replace(char, "\\" + char)
    return " ".join(out.split())


def change_text(row: dict[str, Any], previous_pass: int | None) -> str:
    state = row["state"]
    if state == "new":
        return "new" if previous_pass else "first pass"
    if state == "unchanged":
        return f"unchanged (report of pass {row['written_in_pass']})"
    parts = ", ".join(row["changed"]) or "—"
    old, new = row.get("previous_fingerprint") or "none", row["fingerprint"]
    fp = f"fingerprint {old[:12]} → {new[:12]}" if old != new else "fingerprint unchanged"
    return f"changed: {parts}; {fp}"


def removed_names(book: dict[str, Any]) -> list[str]:
    """The chapters of the previous pass that are gone, each as ``FILE (TITLE)`` when its title is
    known (a rename shows as one of these and one ``new`` row)."""
    entries = book.get("removed_chapters")
    if entries is None:
        return list(book.get("removed") or [])
    return [f"{e['name']} ({e['title']})" if e.get("title") else e["name"] for e in entries]


def render_markdown(book: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    previous = book.get("previous_pass")
    lines = [f"# {_md(book['title'])}: chapter audit", ""]
    changed = sum(1 for r in rows if r["state"] == "changed")
    new = sum(1 for r in rows if r["state"] == "new")
    summary = (f"Book pass {book['pass']} ({book['date']}, run {book['run_id']}): {len(rows)} chapters")
    if previous:
        summary += (f"; since pass {previous['pass']} ({previous['date']}): {changed} changed, {new} new, "
                    f"{len(rows) - changed - new} unchanged, {len(book.get('removed') or [])} removed")
    lines.append(_md(summary) + ". History of every pass: passes.jsonl; this page as HTML: index.html.")
    lines.append("")
    heading = ["#", "Chapter", "File", "Fingerprint", "Status", "Since last pass"] + \
        [COUNT_HEADINGS[c] for c in INDEX_COUNTS] + ["Report"]
    lines.append("| " + " | ".join(heading) + " |")
    lines.append("|" + "|".join("---" for _ in heading) + "|")
    for row in rows:
        cells = [str(row["number"]), _md(row["title"]), _md(row["file"]),
                 f"{row['fingerprint']} ({_md(row['fingerprint_status'])})", row["status"],
                 _md(change_text(row, previous and previous["pass"]))]
        cells += [str(row["counts"][c]) for c in INDEX_COUNTS]
        cells.append(f"[report]({row['report']})")
        lines.append("| " + " | ".join(cells) + " |")
    for title, names in (("Removed since the previous pass", removed_names(book)),
                         ("Chapter files not listed in book.toml (not audited)", book.get("unlisted") or []),
                         ("Claims files that bind no chapter (not read; a renamed or deleted chapter's?)",
                          book.get("unbound_claims") or [])):
        if names:
            lines += ["", f"{title}: " + ", ".join(_md(n) for n in names) + "."]
    lines += ["", "Counts: contradicted = bound numbers the log contradicts; unverified = sources no look-up "
              "verified; unrun = bound experiments with no ok run; retracted = sources marked retracted; "
              "inconsistent = failed checks of the chapter's own numbers; unchecked = bound numbers that "
              "could not be checked. Status is the most serious count present "
              f"({' > '.join(STATUSES)}).", ""]
    return "\n".join(lines)


def bars_svg(counts: dict[str, int], scale: int) -> str:
    """One small horizontal bar per count, widths on the book-wide ``scale``; a <title> per bar."""
    width, height, gap = 120, 6, 2
    parts = [f'<svg class="bars" width="{width}" height="{len(INDEX_COUNTS) * (height + gap)}" '
             f'role="img" aria-label="counts">']
    for i, name in enumerate(INDEX_COUNTS):
        value = int(counts.get(name, 0))
        length = 0 if scale <= 0 else max(1 if value else 0, round(width * value / scale))
        y = i * (height + gap)
        parts.append(f'<rect x="0" y="{y}" width="{width}" height="{height}" fill="#eee"/>'
                     f'<rect x="0" y="{y}" width="{length}" height="{height}" fill="{BAR_COLOURS[name]}">'
                     f'<title>{name}: {value}</title></rect>')
    parts.append("</svg>")
    return "".join(parts)


CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em;margin:0 0 .3em}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}
th{cursor:pointer;background:#f4f4f4;user-select:none;white-space:nowrap}
th.sorted-asc::after{content:" \\25B2"}th.sorted-desc::after{content:" \\25BC"}
td.n{text-align:right;font-variant-numeric:tabular-nums}
code{font-size:12px}
.st{font-weight:600;padding:1px 5px;border-radius:3px;color:#fff;background:#7f8c8d}
.st-CONTRADICTED{background:#c0392b}.st-RETRACTED{background:#8e44ad}.st-INCONSISTENT{background:#d35400}
.st-UNCHECKED{background:#2c3e50}.st-UNRUN{background:#e67e22}.st-NO-FLAGS{background:#27ae60}
.changed{color:#c0392b}.unchanged{color:#777}
.controls{margin:.6em 0}.controls>*{margin-right:.6em}
.legend span{display:inline-block;width:10px;height:10px;margin:0 3px 0 8px}
""".strip()

SCRIPT = """
(function(){
var table=document.getElementById('chapters'),body=table.tBodies[0];
var rows=Array.prototype.slice.call(body.rows);
function filter(){
 var q=document.getElementById('q').value.toLowerCase(),s=document.getElementById('status').value,
     c=document.getElementById('change').value,shown=0;
 rows.forEach(function(r){
  var ok=(!q||r.getAttribute('data-text').indexOf(q)>=0)&&(!s||r.getAttribute('data-status')===s)
        &&(!c||r.getAttribute('data-state')===c);
  r.style.display=ok?'':'none';if(ok)shown++;});
 document.getElementById('shown').textContent=shown+' of '+rows.length+' chapters shown';
}
var ths=table.tHead.rows[0].cells;
Array.prototype.forEach.call(ths,function(th,i){
 th.addEventListener('click',function(){
  var kind=th.getAttribute('data-kind'),desc=!th.classList.contains('sorted-desc')&&th.classList.contains('sorted-asc');
  Array.prototype.forEach.call(ths,function(h){h.classList.remove('sorted-asc','sorted-desc');});
  th.classList.add(desc?'sorted-desc':'sorted-asc');
  rows.sort(function(a,b){
   var x=a.cells[i].getAttribute('data-sort'),y=b.cells[i].getAttribute('data-sort'),r;
   if(kind==='num'){r=parseFloat(x)-parseFloat(y);}else{r=x<y?-1:(x>y?1:0);}
   if(r===0){r=parseFloat(a.getAttribute('data-number'))-parseFloat(b.getAttribute('data-number'));}
   return desc?-r:r;});
  rows.forEach(function(r){body.appendChild(r);});
 });});
['q','status','change'].forEach(function(id){document.getElementById(id).addEventListener('input',filter);});
var m=/^#q=(.*)$/.exec(location.hash);if(m){document.getElementById('q').value=decodeURIComponent(m[1]);}
filter();
})();
""".strip()


def _cell(content: str, sort: Any, cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return f'<td{klass} data-sort="{html.escape(str(sort), quote=True)}">{content}</td>'


def render_html(book: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    esc = html.escape
    previous = book.get("previous_pass")
    scale = max([1] + [int(r["counts"][c]) for r in rows for c in INDEX_COUNTS])
    headings = [("#", "num"), ("Chapter", "text"), ("File", "text"), ("Fingerprint", "text"),
                ("Status", "num"), ("Since last pass", "text")] + \
        [(COUNT_HEADINGS[c], "num") for c in INDEX_COUNTS] + [("Counts", "num"), ("Report", "text")]
    head = "".join(f'<th data-kind="{kind}">{esc(name)}</th>' for name, kind in headings)
    body = []
    for row in rows:
        change = change_text(row, previous and previous["pass"])
        total = sum(int(row["counts"][c]) for c in INDEX_COUNTS)
        searchable = " ".join([row["title"], row["file"], row["status"], change, row["fingerprint"]]).lower()
        cells = [
            _cell(str(row["number"]), row["number"], "n"),
            _cell(esc(row["title"]), row["title"].lower()),
            _cell(f"<code>{esc(row['file'])}</code>", row["file"].lower()),
            _cell(f'<code title="{esc(row["fingerprint"], quote=True)}">{esc(row["fingerprint"][:12])}</code> '
                  f'{esc(row["fingerprint_status"])}', row["fingerprint"]),
            _cell(f'<span class="st st-{esc(row["status"])}">{esc(row["status"])}</span>',
                  STATUSES.index(row["status"]) if row["status"] in STATUSES else len(STATUSES)),
            _cell(f'<span class="{"changed" if row["state"] == "changed" else "unchanged"}">{esc(change)}</span>',
                  row["state"]),
        ]
        cells += [_cell(str(row["counts"][c]), row["counts"][c], "n") for c in INDEX_COUNTS]
        cells.append(_cell(bars_svg(row["counts"], scale), total))
        cells.append(_cell(f'<a href="{esc(row["report"], quote=True)}">report</a>', row["file"].lower()))
        body.append(f'<tr data-number="{row["number"]}" data-status="{esc(row["status"])}" '
                    f'data-state="{esc(row["state"])}" data-text="{esc(searchable, quote=True)}">'
                    + "".join(cells) + "</tr>")
    summary = f"Book pass {book['pass']} ({book['date']}, run {book['run_id']}): {len(rows)} chapters"
    if previous:
        changed = sum(1 for r in rows if r["state"] == "changed")
        new = sum(1 for r in rows if r["state"] == "new")
        summary += (f"; since pass {previous['pass']} ({previous['date']}): {changed} changed, {new} new, "
                    f"{len(rows) - changed - new} unchanged, {len(book.get('removed') or [])} removed")
    statuses = "".join(f'<option value="{s}">{s}</option>' for s in STATUSES)
    legend = "".join(f'<span style="background:{BAR_COLOURS[c]}"></span>{esc(COUNT_HEADINGS[c])}'
                     for c in INDEX_COUNTS)
    extra = []
    for title, names in (("Removed since the previous pass", removed_names(book)),
                         ("Not listed in book.toml (not audited)", book.get("unlisted") or []),
                         ("Claims files that bind no chapter (not read)", book.get("unbound_claims") or [])):
        if names:
            extra.append(f"<p>{esc(title)}: {esc(', '.join(names))}.</p>")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(book['title'])}: chapter audit</title>
<style>{CSS}</style>
</head>
<body>
<h1>{esc(book['title'])}: chapter audit</h1>
<p>{esc(summary)}. History of every pass: <code>passes.jsonl</code>; the same table as Markdown: <a href="index.md">index.md</a>.</p>
<div class="controls"><input id="q" type="search" placeholder="filter chapters" aria-label="filter">
<select id="status" aria-label="status"><option value="">every status</option>{statuses}</select>
<select id="change" aria-label="change"><option value="">changed or not</option><option value="changed">changed</option><option value="unchanged">unchanged</option><option value="new">new</option></select>
<span id="shown"></span></div>
<p class="legend">Bars (one scale for the book, longest = {scale}):{legend}</p>
<table id="chapters">
<thead><tr>{head}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody>
</table>
{''.join(extra)}
<script>{SCRIPT}</script>
</body>
</html>
"""
