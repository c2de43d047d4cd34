"""GitHub REST: ``GET {base}/repos/{owner}/{repo}`` → full name, description, archived,
last push, licence (https://docs.github.com/en/rest/repos/repos#get-a-repository).

A renamed repository answers with a redirect to its new location, which is followed (https
only); the verified ``full_name`` then shows the current name. Unauthenticated (60 requests an
hour), which is plenty for a pack's handful of repositories.
"""

from __future__ import annotations

from typing import Any

from sources.crossref import LookupFailure, load_json
from sources.http import SourceEndpoints

SERVICE = "GitHub"
HEADERS = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}


def request_url(repo: str, endpoints: SourceEndpoints) -> str:
    return f"{endpoints.github.rstrip('/')}/repos/{repo}"


def parse(body: bytes, repo: str) -> dict[str, Any]:
    data = load_json(body, SERVICE)
    if not isinstance(data, dict):
        raise LookupFailure("malformed response from GitHub: not a JSON object")
    full_name = data.get("full_name")
    if not isinstance(full_name, str) or "/" not in full_name:
        raise LookupFailure("malformed response from GitHub: no 'full_name'")
    verified: dict[str, Any] = {"full_name": full_name}
    for name in ("description", "archived", "pushed_at", "html_url"):
        if name in data:
            verified[name] = data[name]
    if "license" in data:
        licence = data["license"]
        verified["license"] = licence.get("spdx_id") if isinstance(licence, dict) else None
    return verified
