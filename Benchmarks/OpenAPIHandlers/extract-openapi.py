#!/usr/bin/env python3
"""Copies the three measured device operations out of docs/openapi.json into Sources/DeviceAPI/openapi.json, with
the components they refer to, unchanged: run it again after the document changes."""
import json, os

here = os.path.dirname(os.path.abspath(__file__))
document = json.load(open(os.path.join(here, "../../docs/openapi.json")))
operations = {
    "/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}": "get",
    "/v1/passes/{passTypeIdentifier}/{serialNumber}": "get",
    "/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}": "post",
}
paths = {}
for path, method in operations.items():
    item = document["paths"][path]
    paths[path] = {key: item[key] for key in ("parameters", method) if key in item}
text = json.dumps(paths)
schemas = {name: schema for name, schema in document["components"]["schemas"].items()
           if f'"#/components/schemas/{name}"' in text}
copy = {
    "openapi": document["openapi"],
    "info": {**document["info"], "description": "The device operations of docs/openapi.json that "
             "scripts/bench-openapi-handlers.sh measures, copied by extract-openapi.py."},
    "servers": document["servers"],
    "paths": paths,
    "components": {"securitySchemes": {"ApplePass": document["components"]["securitySchemes"]["ApplePass"]},
                   "schemas": schemas},
}
with open(os.path.join(here, "Sources/DeviceAPI/openapi.json"), "w") as out:
    json.dump(copy, out, indent=2, ensure_ascii=False)
    out.write("\n")
