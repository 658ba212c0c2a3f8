#!/usr/bin/env python3
"""Checks Google Wallet save-link payloads and JWTs with implementations independent of Tessera's.

    scripts/check-google.py payload FILE.json          # {"eventTicketClasses": [...], ...} or {"payload": {...}}
    scripts/check-google.py jwt SAVE_URL PUBLIC_KEY.pem [ISS] [KID]

`payload` walks every class and object against the walletobjects v1 discovery document that
google-api-python-client ships: unknown properties, types, enum values and the properties the document
marks "Required.". `jwt` verifies the link's JWT with PyJWT (RS256, aud "google") and checks Google's claims.
Prints one line per problem and exits 1 if there is any.
"""
import json
import os
import re
import sys

PAYLOAD_TYPES = {
    "eventTicketClasses": "EventTicketClass", "eventTicketObjects": "EventTicketObject",
    "flightClasses": "FlightClass", "flightObjects": "FlightObject",
    "transitClasses": "TransitClass", "transitObjects": "TransitObject",
    "loyaltyClasses": "LoyaltyClass", "loyaltyObjects": "LoyaltyObject",
    "offerClasses": "OfferClass", "offerObjects": "OfferObject",
    "genericClasses": "GenericClass", "genericObjects": "GenericObject",
}
JSON_TYPES = {"string": str, "boolean": bool, "object": dict, "array": list}


def schemas():
    import googleapiclient
    path = os.path.join(os.path.dirname(googleapiclient.__file__), "discovery_cache", "documents", "walletobjects.v1.json")
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["schemas"]


def check(value, prop, path, all_schemas, problems):
    if "$ref" in prop:
        schema = all_schemas[prop["$ref"]]
        if not isinstance(value, dict):
            problems.append(f"{path}: not an object ({prop['$ref']})")
            return
        props = schema.get("properties", {})
        for key, inner in props.items():
            if re.match(r"\s*Required\.", inner.get("description", "")) and key not in value:
                problems.append(f"{path}.{key}: required by {prop['$ref']}")
        for key, member in value.items():
            if key not in props:
                problems.append(f"{path}.{key}: not a property of {prop['$ref']}")
            else:
                check(member, props[key], f"{path}.{key}", all_schemas, problems)
        return
    kind = prop.get("type")
    if kind == "array":
        if not isinstance(value, list):
            problems.append(f"{path}: not an array")
            return
        for index, element in enumerate(value):
            check(element, prop["items"], f"{path}[{index}]", all_schemas, problems)
    elif kind in ("integer", "number"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) and not (isinstance(value, str) and prop.get("format") in ("int64", "uint64")):
            problems.append(f"{path}: not a {kind}")
    elif kind in JSON_TYPES:
        if not isinstance(value, JSON_TYPES[kind]):
            problems.append(f"{path}: not a {kind}")
        elif "enum" in prop and value not in prop["enum"]:
            problems.append(f"{path}: {value!r} is not one of {prop['enum']}")


def check_payload(document):
    payload = document.get("payload", document)
    all_schemas = schemas()
    problems = []
    if not payload:
        problems.append("payload: empty")
    for member, elements in payload.items():
        if member not in PAYLOAD_TYPES:
            problems.append(f"{member}: not a member of a save link's payload")
            continue
        for index, element in enumerate(elements):
            if member.endswith("Objects") and isinstance(element, dict) and set(element) == {"id"}:
                continue  # an object inserted beforehand, referred to by id, as Google allows
            check(element, {"$ref": PAYLOAD_TYPES[member]}, f"{member}[{index}]", all_schemas, problems)
    return problems


def check_jwt(url, public_key_path, iss=None, kid=None):
    import jwt
    prefix = "https://pay.google.com/gp/v/save/"
    if not url.startswith(prefix):
        return [f"link does not start with {prefix}"]
    token = url[len(prefix):]
    with open(public_key_path, "rb") as handle:
        key = handle.read()
    problems = []
    header = jwt.get_unverified_header(token)
    if header.get("alg") != "RS256":
        problems.append(f"header alg {header.get('alg')!r} is not RS256")
    if kid is not None and header.get("kid") != kid:
        problems.append(f"header kid {header.get('kid')!r} is not {kid!r}")
    try:
        claims = jwt.decode(token, key, algorithms=["RS256"], audience="google", options={"verify_iat": True})
    except jwt.PyJWTError as error:
        return problems + [f"signature or claims refused by PyJWT: {error}"]
    if claims.get("typ") != "savetowallet":
        problems.append(f"typ claim {claims.get('typ')!r} is not savetowallet")
    if iss is not None and claims.get("iss") != iss:
        problems.append(f"iss {claims.get('iss')!r} is not {iss!r}")
    if not isinstance(claims.get("origins"), list):
        problems.append("origins claim is not a list")
    if not isinstance(claims.get("iat"), int):
        problems.append("iat claim is not a number")
    problems += check_payload({"payload": claims.get("payload") or {}})
    if len(url) > 1800:
        problems.append(f"link is {len(url)} characters; Google takes 1800")
    return problems


def main(argv):
    if len(argv) >= 2 and argv[0] == "payload":
        with open(argv[1], encoding="utf-8") as handle:
            problems = check_payload(json.load(handle))
    elif len(argv) >= 3 and argv[0] == "jwt":
        problems = check_jwt(argv[1], argv[2], *(argv[3:5]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    if not problems:
        print("ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
