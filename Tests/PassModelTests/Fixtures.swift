import Foundation
import PNGEncoding
import PassModel

/// Builders shared by the PassModel tests.
enum Fixtures {
    /// A minimal valid event ticket as a JSON tree; tests mutate it to break one rule at a time.
    static var eventTicket: JSONValue {
        [
            "formatVersion": 1,
            "passTypeIdentifier": "pass.com.example.ticket",
            "serialNumber": "E-0001",
            "teamIdentifier": "A1B2C3D4E5",
            "organizationName": "Example Hall",
            "description": "Concert ticket",
            "backgroundColor": "rgb(20, 30, 40)",
            "barcodes": [["format": "PKBarcodeFormatQR", "message": "E-0001", "messageEncoding": "iso-8859-1"]],
            "eventTicket": [
                "primaryFields": [["key": "event", "label": "EVENT", "value": "The Band"]],
                "secondaryFields": [
                    ["key": "seat", "label": "SEAT", "value": "12A"],
                    ["key": "gate", "label": "GATE", "value": 4],
                ],
                "auxiliaryFields": [
                    [
                        "key": "doors", "label": "DOORS", "value": "2026-05-07T18:30-05:00",
                        "dateStyle": "PKDateStyleShort", "timeStyle": "PKDateStyleShort",
                    ]
                ],
                "backFields": [["key": "terms", "label": "TERMS", "value": "No refunds."]],
            ],
        ]
    }

    /// The icon every valid pass needs.
    static var iconFiles: [String: Data] { ["icon.png": png(width: 29, height: 29)] }

    static func data(_ json: JSONValue) -> Data {
        try! json.jsonData()
    }

    /// Validates a JSON tree with the given files (icon included unless `files` replaces it).
    static func validate(_ json: JSONValue, files: [String: Data] = iconFiles) -> ValidationReport {
        PassValidator().validate(passJSON: data(json), files: files)
    }

    /// A whole PNG of transparent pixels (8-bit RGBA), as the validator reads every image whole.
    static func png(width: Int, height: Int) -> Data {
        try! PNGFile.encode(width: width, height: height, bitDepth: 8, colorType: .rgba,
                            filteredScanlines: [UInt8](repeating: 0, count: height * (1 + width * 4)))
    }
}

extension JSONValue {
    /// Sets a value at a path of object keys and array indices, for building broken fixtures.
    mutating func set(_ path: [Any], to value: JSONValue?) {
        guard let first = path.first else {
            self = value ?? .null
            return
        }
        let rest = Array(path.dropFirst())
        if let key = first as? String {
            var members = objectValue ?? [:]
            if rest.isEmpty {
                members[key] = value
            } else {
                var child = members[key] ?? .object([:])
                child.set(rest, to: value)
                members[key] = child
            }
            self = .object(members)
        } else if let index = first as? Int, case .array(var elements) = self {
            elements[index].set(rest, to: value)
            self = .array(elements)
        }
    }

    func setting(_ path: [Any], to value: JSONValue?) -> JSONValue {
        var copy = self
        copy.set(path, to: value)
        return copy
    }
}

extension ValidationReport {
    /// Whether an issue of this severity is at `path` with a message containing `fragment`.
    func has(_ severity: ValidationIssue.Severity, _ path: String, _ fragment: String) -> Bool {
        issues.contains { $0.severity == severity && $0.path == path && $0.message.contains(fragment) }
    }
}
