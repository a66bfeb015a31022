#!/usr/bin/env python3
"""The reference for ProtoJSON's conformance tests: Python's `protobuf` package over a descriptor set.

    reference.py PROTOSET CASES     prints one JSON result per case, as a JSON array

CASES is a JSON file: [{"type": "pkg.Message", "op": "parse" | "print", "input": TEXT,
"emitDefaults": false, "ours": {"hex": HEX, "json": TEXT}}, ...]. "parse" reads INPUT as JSON
(json_format.Parse); "print" reads it as hex of binary protobuf (ParseFromString). Either way the
message is written back both ways:

    {"ok": true, "hex": SerializeToString in hex, "json": MessageToJson,
     "hasMaps": whether a map field is set anywhere in it (their entries' order is unspecified),
     "sameBytes": whether OURS' hex reads as an equal message,
     "sameJSON": whether OURS' JSON reads as the same message as the reference's JSON does}
    {"ok": false, "error": "why the reference refused"}

A message read from binary is written without the check of proto2 required fields (the reference
only checks them when writing a message it was given).
"""
import json
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory


def main():
    protoset_path, cases_path = sys.argv[1], sys.argv[2]
    with open(protoset_path, "rb") as file:
        files = descriptor_pb2.FileDescriptorSet.FromString(file.read()).file
    pool = descriptor_pool.DescriptorPool()
    for proto in files:
        pool.Add(proto)
    with open(cases_path, encoding="utf-8") as file:
        cases = json.load(file)
    results = []
    for case in cases:
        try:
            message = message_factory.GetMessageClass(pool.FindMessageTypeByName(case["type"]))()
            if case["op"] == "parse":
                json_format.Parse(case["input"], message, descriptor_pool=pool)
            else:
                message.ParseFromString(bytes.fromhex(case["input"]))
            text = json_format.MessageToJson(
                message,
                indent=None,
                descriptor_pool=pool,
                always_print_fields_with_no_presence=case.get("emitDefaults", False),
            )
            if case["op"] == "parse":
                data = message.SerializeToString(deterministic=True)
            else:
                data = message.SerializePartialToString(deterministic=True)
            result = {"ok": True, "hex": data.hex(), "json": text, "hasMaps": has_maps(message)}
            ours = case.get("ours")
            if ours is not None:
                result["sameBytes"] = same(message, lambda other: other.ParseFromString(bytes.fromhex(ours["hex"])))
                result["sameJSON"] = read_json(message, ours["json"], pool) == read_json(message, text, pool)
            results.append(result)
        except Exception as error:  # the reference refused: that is a result to compare
            results.append({"ok": False, "error": f"{type(error).__name__}: {error}"})
    json.dump(results, sys.stdout)


def same(message, read):
    """Whether what `read` puts into a new message of the same type equals `message`."""
    other = type(message)()
    try:
        read(other)
    except Exception:
        return False
    return other == message


def read_json(message, text, pool):
    """A message of MESSAGE's type read from TEXT, or None where the reference cannot read it back
    (it refuses its own largest float, and the JSON of a message nested past its depth limit).
    Python's json reads "-0" as the integer 0; this reads it as JSON means it, negative zero."""
    other = type(message)()
    try:
        document = json.loads(text, parse_int=lambda digits: -0.0 if digits == "-0" else int(digits))
        json_format.ParseDict(document, other, descriptor_pool=pool)
    except Exception:
        return None
    return other


def has_maps(message):
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            return True
        if field.type == field.TYPE_MESSAGE:
            values = value if field.is_repeated else [value]
            if any(has_maps(item) for item in values):
                return True
    return False


if __name__ == "__main__":
    main()
