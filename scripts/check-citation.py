#!/usr/bin/env python3
"""Checks CITATION.cff (CFF 1.2.0) and codemeta.json: structure, and that they
agree with each other (release date included), with Cargo.toml, flake.nix's
versions and the paper's manifest key; and
that .zenodo.json and CHANGELOG.md agree with them (title, version, licence,
description, creators; a released version has a dated CHANGELOG section).

Stdlib only. CITATION.cff is read with a parser for the YAML subset it uses
(block mappings, block lists of scalars or of flat mappings, plain or
double-quoted scalars); anything outside that subset is an error.
"""
import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEY_RE = re.compile(r"^(?P<key>[A-Za-z][A-Za-z0-9-]*):(?: (?P<value>.*))?$")
CFF_KEYS = {
    "abstract", "authors", "cff-version", "commit", "contact", "date-released", "doi",
    "identifiers", "keywords", "license", "license-url", "message", "preferred-citation",
    "references", "repository", "repository-artifact", "repository-code", "title", "type",
    "url", "version",
}
IDENTIFIER_TYPES = {"doi", "url", "swh", "other"}


class YamlError(Exception):
    pass


def scalar(text, lineno):
    text = text.strip()
    if text.startswith('"'):
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise YamlError(f"line {lineno}: bad double-quoted scalar: {e}") from None
    if not text or text[0] in "'{[&*!|>%@`" or ": " in text or " #" in text:
        raise YamlError(f"line {lineno}: unsupported scalar {text!r}")
    return text


def parse_cff(text):
    """The YAML subset: top-level `key: scalar` or `key:` + a block list."""
    doc, key, lines = {}, None, text.splitlines()
    for lineno, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "\t" in line:
            raise YamlError(f"line {lineno}: tab")
        if not line.startswith(" "):
            m = KEY_RE.match(line)
            if not m:
                raise YamlError(f"line {lineno}: expected `key: value`")
            key = m["key"]
            if key in doc:
                raise YamlError(f"line {lineno}: duplicate key {key}")
            doc[key] = scalar(m["value"], lineno) if m["value"] else []
            continue
        if key is None or not isinstance(doc[key], list):
            raise YamlError(f"line {lineno}: indented line outside a list")
        stripped = line.strip()
        if line.startswith("  - "):
            item = stripped[2:]
            m = KEY_RE.match(item)
            doc[key].append({m["key"]: scalar(m["value"] or "", lineno)} if m else scalar(item, lineno))
        elif line.startswith("    ") and doc[key] and isinstance(doc[key][-1], dict):
            m = KEY_RE.match(stripped)
            if not m or not m["value"]:
                raise YamlError(f"line {lineno}: expected `key: value` in a list item")
            if m["key"] in doc[key][-1]:
                raise YamlError(f"line {lineno}: duplicate key {m['key']}")
            doc[key][-1][m["key"]] = scalar(m["value"], lineno)
        else:
            raise YamlError(f"line {lineno}: unsupported indentation")
    return doc


def check_cff(cff):
    errors = []
    unknown = set(cff) - CFF_KEYS
    if unknown:
        errors.append(f"CITATION.cff: keys not in CFF 1.2.0: {sorted(unknown)}")
    for key in ("cff-version", "message", "title", "authors"):
        if key not in cff:
            errors.append(f"CITATION.cff: required key {key} missing")
    if cff.get("cff-version") != "1.2.0":
        errors.append("CITATION.cff: cff-version must be 1.2.0")
    for key in ("message", "title", "version", "license", "repository-code", "abstract", "type"):
        if key in cff and not (isinstance(cff[key], str) and cff[key]):
            errors.append(f"CITATION.cff: {key} must be a non-empty string")
    if cff.get("type", "software") not in ("software", "dataset"):
        errors.append("CITATION.cff: type must be software or dataset")
    authors = cff.get("authors")
    if not (isinstance(authors, list) and authors and all(
            isinstance(a, dict) and ("name" in a or "family-names" in a) for a in authors)):
        errors.append("CITATION.cff: authors must be a non-empty list of persons or entities")
    keywords = cff.get("keywords", [])
    if not (isinstance(keywords, list) and all(isinstance(k, str) for k in keywords)
            and len(set(keywords)) == len(keywords)):
        errors.append("CITATION.cff: keywords must be a list of unique strings")
    for ident in cff.get("identifiers", []):
        if not isinstance(ident, dict) or set(ident) - {"type", "value", "description"}:
            errors.append(f"CITATION.cff: bad identifier {ident}")
        elif ident.get("type") not in IDENTIFIER_TYPES or not ident.get("value"):
            errors.append(f"CITATION.cff: identifier needs type in {sorted(IDENTIFIER_TYPES)} and a value")
    if not re.fullmatch(r"https?://\S+", cff.get("repository-code", "")):
        errors.append("CITATION.cff: repository-code must be a URL")
    return errors


CHANGELOG_HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?\s*$")


def check_zenodo(zenodo, cff):
    errors = []
    expected = {
        "title": cff.get("title"),
        "description": cff.get("abstract"),
        "version": cff.get("version"),
        "license": cff.get("license"),
        "upload_type": "software",
        "creators": [{"name": a.get("name")} for a in cff.get("authors", [])],
        "keywords": cff.get("keywords"),
    }
    for key, value in expected.items():
        if zenodo.get(key) != value:
            errors.append(f".zenodo.json: {key} is {zenodo.get(key)!r}, CITATION.cff gives {value!r}")
    if zenodo.get("publication_date") != cff.get("date-released"):
        errors.append(f".zenodo.json: publication_date {zenodo.get('publication_date')!r} is not "
                      f"CITATION.cff's date-released {cff.get('date-released')!r}")
    return errors


def check_changelog(text, cff):
    """Keep a Changelog headings; CITATION's version dated exactly when released."""
    errors, sections = [], {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            m = CHANGELOG_HEADING.match(line)
            if not m or (m["version"] != "Unreleased" and not re.fullmatch(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?", m["version"])):
                errors.append(f"CHANGELOG.md:{lineno}: expected `## [Unreleased]` or `## [X.Y.Z] - YYYY-MM-DD`")
                continue
            if m["version"] in sections:
                errors.append(f"CHANGELOG.md:{lineno}: [{m['version']}] appears twice")
            if m["version"] != "Unreleased" and not m["date"]:
                errors.append(f"CHANGELOG.md:{lineno}: [{m['version']}] has no date")
            sections[m["version"]] = m["date"]
    if not sections:
        errors.append("CHANGELOG.md: no `## [Unreleased]` or version section")
    version, released = cff.get("version"), cff.get("date-released")
    if released is not None and sections.get(version) != released:
        errors.append(f"CHANGELOG.md: CITATION.cff releases {version} on {released}; "
                      f"expected a `## [{version}] - {released}` section")
    if released is None and sections.get(version):
        errors.append(f"CHANGELOG.md: [{version}] is dated {sections[version]}, "
                      "but CITATION.cff has no date-released")
    if version not in sections and "Unreleased" not in sections:
        errors.append(f"CHANGELOG.md: neither [{version}] nor [Unreleased] is present")
    return errors


def main():
    errors = []
    try:
        cff = parse_cff((ROOT / "CITATION.cff").read_text())
    except YamlError as e:
        sys.exit(f"CITATION.cff: {e}")
    errors += check_cff(cff)
    meta = json.loads((ROOT / "codemeta.json").read_text())
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]
    macros = (ROOT / "paper" / "binostr-macros.tex").read_text()
    paper_key = re.search(r"\\newcommand\{\\ManifestPubkey\}\{([0-9a-f]{64})\}", macros)

    cff_keys = [i["value"] for i in cff.get("identifiers", []) if re.fullmatch(r"[0-9a-f]{64}", i.get("value", ""))]
    meta_keys = [i.get("value") for i in meta.get("identifier", []) if isinstance(i, dict)]
    pairs = {
        "title": (cff.get("title"), meta.get("name")),
        "version": (cff.get("version"), meta.get("version"), cargo["version"]),
        "licence": (cff.get("license"), meta.get("license", "").rsplit("/", 1)[-1], cargo["license"]),
        "repository": (cff.get("repository-code"), meta.get("codeRepository"), cargo["repository"]),
        "authors": ([a.get("name") for a in cff.get("authors", [])], [a.get("name") for a in meta.get("author", [])]),
        "keywords": (cff.get("keywords"), meta.get("keywords")),
        "abstract": (cff.get("abstract"), meta.get("description")),
        "manifest key": (cff_keys, meta_keys, [paper_key[1]] if paper_key else None),
    }
    flake_versions = set(re.findall(r'version = "([^"]+)";', (ROOT / "flake.nix").read_text()))
    if flake_versions != {cargo["version"]}:
        errors.append(f"flake.nix: versions {sorted(flake_versions)}, Cargo.toml has {cargo['version']}")
    if meta.get("datePublished") != cff.get("date-released"):
        errors.append(f"codemeta.json: datePublished {meta.get('datePublished')!r} is not "
                      f"CITATION.cff's date-released {cff.get('date-released')!r}")
    for what, values in pairs.items():
        if any(v != values[0] for v in values[1:]) or not values[0]:
            errors.append(f"{what} disagrees: {values}")
    if "date-released" in cff and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", cff["date-released"]):
        errors.append("CITATION.cff: date-released must be YYYY-MM-DD")
    try:
        errors += check_zenodo(json.loads((ROOT / ".zenodo.json").read_text()), cff)
    except (OSError, ValueError) as e:
        errors.append(f".zenodo.json: {e}")
    try:
        errors += check_changelog((ROOT / "CHANGELOG.md").read_text(), cff)
    except OSError as e:
        errors.append(f"CHANGELOG.md: {e}")
    if meta.get("@type") != "SoftwareSourceCode" or "codemeta" not in str(meta.get("@context")):
        errors.append("codemeta.json: not a codemeta SoftwareSourceCode")
    if errors:
        sys.exit("citation: " + "\n citation: ".join(errors))
    print(f"citation: CITATION.cff, codemeta.json, .zenodo.json and CHANGELOG.md agree (version {cff['version']}, key {cff_keys[0][:16]}...)")


if __name__ == "__main__":
    main()
