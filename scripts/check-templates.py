#!/usr/bin/env python3
"""Quick consistency check of PassTemplates/ and docs/examples/ (no Swift build needed).

Checks: pass.json parses and has the required identifiers; exactly one style key; per-style field counts;
field keys unique across the pass; W3C dates with a zone; rgb() colours; barcodes; at most 10 locations;
no webServiceURL/authenticationToken in templates; localization keys present in every .lproj/pass.strings and
no unused keys; every changeMessage (after localization) contains %@; PNGs are 8-bit RGBA at points x scale;
per-template image size budget; example data documents only set fields that exist.

Requires Pillow for the PNG checks (`pip install pillow`). Exit status 1 if anything failed.
Usage: python3 scripts/check-templates.py
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "PassTemplates"
EXAMPLES = ROOT / "docs" / "examples"

STYLES = ("boardingPass", "coupon", "eventTicket", "storeCard", "generic")
SECTIONS = ("headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields")
LIMITS = {"headerFields": 3, "primaryFields": 1, "secondaryFields": 4, "auxiliaryFields": 4}
DATE_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?(Z|[+-]\d\d:\d\d)$")
RGB_RE = re.compile(r"^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$")
BARCODE_FORMATS = {"PKBarcodeFormatPDF417", "PKBarcodeFormatQR", "PKBarcodeFormatAztec", "PKBarcodeFormatCode128"}
POINTS = {"icon": (29, 29), "logo": (160, 50), "footer": (286, 15), "strip": (375, 144),
          "background": (180, 220), "thumbnail": (90, 90), "artwork": (358, 448), "primaryLogo": (126, 30),
          "personalizationLogo": (150, 40)}
EXPECTED_IMAGES = {
    "boarding-pass": {"icon", "logo", "footer"},
    "coupon": {"icon", "logo", "strip"},
    "event-ticket": {"icon", "logo", "background", "thumbnail"},
    "store-card": {"icon", "logo", "strip"},
    "store-card-rewards": {"icon", "logo", "strip", "personalizationLogo"},
    "generic": {"icon", "logo", "thumbnail"},
    "poster-event-ticket": {"icon", "logo", "background", "thumbnail", "artwork", "primaryLogo"},
    "semantic-boarding-pass": {"icon", "logo", "footer"},
    "poster-generic": {"icon", "logo", "thumbnail", "artwork", "primaryLogo"},
}
EXPECTED_BARCODE = {"boarding-pass": "PKBarcodeFormatPDF417", "coupon": "PKBarcodeFormatQR",
                    "event-ticket": "PKBarcodeFormatQR", "store-card": "PKBarcodeFormatCode128",
                    "store-card-rewards": "PKBarcodeFormatCode128",
                    "generic": "PKBarcodeFormatAztec", "poster-event-ticket": "PKBarcodeFormatQR",
                    "semantic-boarding-pass": "PKBarcodeFormatPDF417", "poster-generic": "PKBarcodeFormatAztec"}
DATE_KEYS = ("relevantDate", "expirationDate")
BUDGET_BYTES = 200_000

STRINGS_ENTRY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;')

problems: list[str] = []


def fail(where: str, message: str) -> None:
    problems.append(f"{where}: {message}")


def parse_strings(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
    entries = dict(STRINGS_ENTRY.findall(text))
    leftover = STRINGS_ENTRY.sub("", text).strip()
    if leftover:
        fail(str(path.relative_to(ROOT)), f"unparsed text: {leftover[:60]!r}")
    return entries


def walk_dates(where: str, value, path: str) -> None:
    """Semantics dates (keys ending in Date) must be W3C dates too."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k.endswith("Date") and isinstance(v, str) and not DATE_RE.match(v):
                fail(where, f"{path}.{k}: not a W3C date with a zone: {v}")
            walk_dates(where, v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            walk_dates(where, v, f"{path}[{i}]")


def check_template(folder: Path) -> set[str]:
    name = folder.name
    where = f"PassTemplates/{name}"
    try:
        pass_json = json.loads((folder / "pass.json").read_text(encoding="utf-8"))
    except Exception as error:  # noqa: BLE001
        fail(where, f"pass.json: {error}")
        return set()

    for key, expected in (("formatVersion", 1), ("passTypeIdentifier", "pass.dev.tessera.demo"),
                          ("teamIdentifier", "TESSERA123")):
        if pass_json.get(key) != expected:
            fail(where, f"{key} should be {expected!r}, is {pass_json.get(key)!r}")
    for key in ("description", "organizationName", "serialNumber"):
        if not isinstance(pass_json.get(key), str) or not pass_json[key]:
            fail(where, f"{key} missing")
    for key in ("webServiceURL", "authenticationToken"):
        if key in pass_json:
            fail(where, f"{key} belongs in data documents, not templates")
    for key in DATE_KEYS:
        if key in pass_json and not DATE_RE.match(pass_json[key]):
            fail(where, f"{key}: not a W3C date with a zone: {pass_json[key]}")
    walk_dates(where, pass_json.get("semantics", {}), "semantics")
    for key in ("backgroundColor", "foregroundColor", "labelColor"):
        if key in pass_json and not RGB_RE.match(pass_json[key]):
            fail(where, f"{key}: not rgb(r, g, b): {pass_json[key]}")

    styles = [s for s in STYLES if s in pass_json]
    if len(styles) != 1:
        fail(where, f"exactly one style key expected, found {styles}")
        return set()
    style = pass_json[styles[0]]

    localizable: list[tuple[str, str]] = []  # (json path, string)
    for key in ("description", "organizationName", "logoText"):
        if isinstance(pass_json.get(key), str):
            localizable.append((key, pass_json[key]))

    barcodes = pass_json.get("barcodes")
    if not isinstance(barcodes, list) or not barcodes:
        fail(where, "barcodes array missing")
    else:
        for i, barcode in enumerate(barcodes):
            if barcode.get("format") not in BARCODE_FORMATS:
                fail(where, f"barcodes[{i}].format invalid: {barcode.get('format')}")
            if barcode.get("format") != EXPECTED_BARCODE.get(name, barcode.get("format")):
                fail(where, f"barcodes[{i}].format should be {EXPECTED_BARCODE[name]}")
            if barcode.get("messageEncoding") != "iso-8859-1":
                fail(where, f"barcodes[{i}].messageEncoding should be iso-8859-1")
            if not barcode.get("message"):
                fail(where, f"barcodes[{i}].message missing")
            try:
                barcode.get("message", "").encode("iso-8859-1")
            except UnicodeEncodeError:
                fail(where, f"barcodes[{i}].message not representable in ISO 8859-1")
            if not barcode.get("altText"):
                fail(where, f"barcodes[{i}].altText missing")

    locations = pass_json.get("locations", [])
    if len(locations) > 10:
        fail(where, f"{len(locations)} locations (at most 10)")
    for i, location in enumerate(locations):
        if "relevantText" in location:
            localizable.append((f"locations[{i}].relevantText", location["relevantText"]))

    field_keys: set[str] = set()
    change_messages: list[tuple[str, str]] = []
    for section in SECTIONS:
        fields = style.get(section, [])
        limit = LIMITS.get(section)
        if section == "primaryFields" and styles[0] == "boardingPass":
            limit = 2
        if limit is not None and len(fields) > limit:
            fail(where, f"{section}: {len(fields)} fields (at most {limit})")
        for i, field in enumerate(fields):
            path = f"{styles[0]}.{section}[{i}]"
            key = field.get("key")
            if not key:
                fail(where, f"{path}: no key")
            elif key in field_keys:
                fail(where, f"{path}: duplicate field key {key!r}")
            field_keys.add(key)
            if "value" not in field:
                fail(where, f"{path}: no value")
            value = field.get("value")
            if "dateStyle" in field or "timeStyle" in field:
                if not isinstance(value, str) or not DATE_RE.match(value):
                    fail(where, f"{path}: date field value is not a W3C date with a zone: {value}")
            if ("numberStyle" in field or "currencyCode" in field) and not isinstance(value, (int, float)):
                fail(where, f"{path}: number style on a non-number value")
            if "numberStyle" in field and "currencyCode" in field:
                fail(where, f"{path}: numberStyle and currencyCode are exclusive")
            for k in ("label", "attributedValue"):
                if isinstance(field.get(k), str):
                    localizable.append((f"{path}.{k}", field[k]))
            if isinstance(value, str) and "dateStyle" not in field and "timeStyle" not in field:
                localizable.append((f"{path}.value", value))
            if "changeMessage" in field:
                change_messages.append((f"{path}.changeMessage", field["changeMessage"]))
                localizable.append((f"{path}.changeMessage", field["changeMessage"]))
    if styles[0] == "boardingPass" and "transitType" not in style:
        fail(where, "boardingPass.transitType missing")

    # localizations
    lprojs = sorted(folder.glob("*.lproj"))
    if len(lprojs) < 2:
        fail(where, f"at least two .lproj folders expected, found {len(lprojs)}")
    tables = {}
    for lproj in lprojs:
        strings_file = lproj / "pass.strings"
        if not strings_file.is_file():
            fail(where, f"{lproj.name}/pass.strings missing")
            continue
        tables[lproj.name] = parse_strings(strings_file)
    all_keys = set().union(*tables.values()) if tables else set()
    used_strings = {s for _, s in localizable}
    key_like = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")
    for path, s in localizable:
        if key_like.match(s) and s not in all_keys:
            fail(where, f"{path}: {s!r} looks like a localization key but no .strings file has it")
    for lang, table in tables.items():
        for key in sorted(all_keys - table.keys()):
            fail(where, f"{lang}/pass.strings: missing key {key!r}")
        for key in sorted(table.keys() - used_strings):
            fail(where, f"{lang}/pass.strings: unused key {key!r}")
    for path, message in change_messages:
        if message in all_keys:
            for lang, table in tables.items():
                if "%@" not in table.get(message, ""):
                    fail(where, f"{path}: {lang} translation of {message!r} lacks %@")
        elif "%@" not in message:
            fail(where, f"{path}: changeMessage lacks %@")

    # images
    total = 0
    found_kinds = set()
    for png in sorted(folder.glob("*.png")):
        total += png.stat().st_size
        m = re.match(r"^([a-zA-Z]+)(?:@([23])x)?\.png$", png.name)
        if not m or m.group(1) not in POINTS:
            fail(where, f"{png.name}: unexpected image name")
            continue
        kind, scale = m.group(1), int(m.group(2) or 1)
        found_kinds.add(kind)
        with Image.open(png) as img:
            expected = (POINTS[kind][0] * scale, POINTS[kind][1] * scale)
            if img.size != expected:
                fail(where, f"{png.name}: {img.size[0]}x{img.size[1]}, expected {expected[0]}x{expected[1]}")
            if img.mode != "RGBA":
                fail(where, f"{png.name}: mode {img.mode}, expected RGBA")
    for kind in EXPECTED_IMAGES.get(name, set()):
        for suffix in ("", "@2x", "@3x"):
            if not (folder / f"{kind}{suffix}.png").is_file():
                fail(where, f"{kind}{suffix}.png missing")
    for kind in found_kinds - EXPECTED_IMAGES.get(name, found_kinds):
        fail(where, f"{kind} images are not expected in this style")
    if total >= BUDGET_BYTES:
        fail(where, f"images total {total} bytes (budget {BUDGET_BYTES})")

    for extra in sorted(p.name for p in folder.iterdir()
                        if p.is_file() and p.suffix not in (".png", ".json")):
        fail(where, f"unexpected file {extra} (every file in the folder goes into the pass)")

    print(f"{where}: {len(field_keys)} fields, {len(tables)} languages, {len(all_keys)} strings, "
          f"images {total // 1024} KB")
    return field_keys


def check_data(where: str, data: dict, field_keys: set[str]) -> None:
    for key in data.get("fields", {}):
        if key not in field_keys:
            fail(where, f"fields.{key}: no such field in the template")
    for key in DATE_KEYS:
        if key in data and not DATE_RE.match(data[key]):
            fail(where, f"{key}: not a W3C date with a zone")
    token = data.get("authenticationToken")
    if token is not None and len(token) < 16:
        fail(where, "authenticationToken shorter than 16 characters")
    if ("webServiceURL" in data) != ("authenticationToken" in data):
        fail(where, "webServiceURL and authenticationToken go together")


def main() -> int:
    keys_by_template = {}
    for name in EXPECTED_IMAGES:
        folder = TEMPLATES / name
        if not folder.is_dir():
            fail("PassTemplates", f"{name}/ missing")
            continue
        keys_by_template[name] = check_template(folder)
    for folder in sorted(TEMPLATES.iterdir()):
        if (folder / "pass.json").is_file() and folder.name not in EXPECTED_IMAGES:
            fail("PassTemplates", f"{folder.name}/ is not known to this check (add its images and barcode above)")

    for name, field_keys in keys_by_template.items():
        data_file = EXAMPLES / f"{name}.data.json"
        if not data_file.is_file():
            fail(str(data_file.relative_to(ROOT)), f"missing: every template has an example data document")
            continue
        data = json.loads(data_file.read_text(encoding="utf-8"))
        check_data(str(data_file.relative_to(ROOT)), data, field_keys)
        if str(data.get("serialNumber", "")).startswith("TEMPLATE-"):
            fail(str(data_file.relative_to(ROOT)), "serialNumber: the template's placeholder, not a pass's own")

    rows_csv = EXAMPLES / "event-ticket.rows.csv"
    rows_jsonl = EXAMPLES / "event-ticket.rows.jsonl"
    event_keys = keys_by_template.get("event-ticket", set())
    if rows_csv.is_file():
        with rows_csv.open(newline="", encoding="utf-8") as handle:
            for line, row in enumerate(csv.DictReader(handle), start=2):
                data = {"fields": {k[len("fields."):]: v for k, v in row.items() if k.startswith("fields.")}}
                check_data(f"{rows_csv.relative_to(ROOT)}:{line}", data, event_keys)
    if rows_jsonl.is_file():
        for line, text in enumerate(rows_jsonl.read_text(encoding="utf-8").splitlines(), start=1):
            if text.strip():
                check_data(f"{rows_jsonl.relative_to(ROOT)}:{line}", json.loads(text), event_keys)

    for problem in problems:
        print(f"FAIL {problem}")
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
