public import Foundation

extension PassTemplate {
    /// Every problem applying a data document would give, at once: the document's own errors (field keys the
    /// template lacks, field values of the wrong type, barcode keys the template cannot take) and the validator's
    /// report on the merged `pass.json` (every value of the wrong type with its path, then every other check).
    ///
    /// ``pass(applying:)`` stops at the first problem because it is the fast path; call this when it throws to tell
    /// the user everything that is wrong in one go.
    /// - Parameters:
    ///   - data: The data document, or `nil`.
    ///   - prepared: The template's other files, parsed once; `nil` parses ``files`` here.
    /// - Returns: The errors and warnings, in the order: data document, then `pass.json`.
    public func report(applying data: PassData?, prepared: PassValidator.PreparedFiles? = nil) -> ValidationReport {
        var issues: [ValidationIssue] = []
        func add(_ path: String, _ message: String) {
            issues.append(ValidationIssue(severity: .error, path: path, message: message))
        }
        var root = self.root
        var index = fieldIndex
        if let data {
            var overrides = data.overrides
            for key in PassData.barcodeKeys { overrides.removeValue(forKey: key) }
            for (key, value) in overrides {
                if value == .null { root.removeValue(forKey: key) } else { root[key] = value }
            }
            if FieldIndex.fieldContainers.contains(where: { overrides[$0.key] != nil }) {
                index = FieldIndex(root: root)
            }
            do {
                if let text = try BarcodeText(overrides: data.overrides) { try apply(text, to: &root) }
            } catch let failure as PassModelError {
                let (key, message) = Self.split(failure.reason)
                add(key ?? PassData.barcodeMessageKey, message)
            } catch {
                add(PassData.barcodeMessageKey, "\(error)")
            }
            var valid: [String: JSONValue] = [:]
            let known = index.locations.keys.sorted().joined(separator: ", ")
            for (key, value) in data.fields.sorted(by: { $0.key < $1.key }) {
                guard index.locations[key] != nil else {
                    add("fields.\(key)", "the template \"\(name)\" has no field with this key; known keys: \(known.isEmpty ? "(none)" : known)")
                    continue
                }
                do {
                    _ = try Self.checkField(key: key, value: value, index: index)
                    valid[key] = value
                } catch let failure as PassModelError {
                    add("fields.\(key)", Self.split(failure.reason).message)
                } catch {
                    add("fields.\(key)", "\(error)")
                }
            }
            if !valid.isEmpty { try? apply(fields: valid, index: index, to: &root) }
        }
        let passJSON: Data
        do {
            passJSON = try JSONValue.object(root).jsonData(sortedKeys: true, prettyPrinted: false)
        } catch {
            add("pass.json", "cannot be written as JSON: \((error as? PassModelError)?.reason ?? "\(error)")")
            return ValidationReport(issues: issues)
        }
        let validator = PassValidator()
        let report = prepared.map { validator.validate(passJSON: passJSON, prepared: $0) }
            ?? validator.validate(passJSON: passJSON, files: files)
        return ValidationReport(issues: issues + report.issues)
    }

    /// A data error's key and reason, from `data field "key": reason` or `data override "key": reason`.
    private static func split(_ reason: String) -> (key: String?, message: String) {
        for prefix in ["data field \"", "data override \""] where reason.hasPrefix(prefix) {
            let rest = reason.dropFirst(prefix.count)
            if let end = rest.range(of: "\": ") { return (String(rest[..<end.lowerBound]), String(rest[end.upperBound...])) }
        }
        return (nil, reason)
    }
}
