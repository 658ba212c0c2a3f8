public import Foundation

/// An Apple `.strings` file, such as `en.lproj/pass.strings`: `"key" = "value";` pairs.
///
/// Accepts UTF-8 (with or without a byte order mark) and UTF-16 with a byte order mark; `/* */` and
/// `//` comments; escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\0` and `\Uxxxx` (also `\uxxxx`); and
/// unquoted keys or values made of letters, digits and `_ . - $ : /`. A repeated key keeps its last value.
public struct StringsFile: Sendable, Equatable {
    /// Each key with its translation.
    public var entries: [String: String]
    /// Keys given more than once, in the order their repeats appear (the last value is the one kept).
    public var repeatedKeys: [RepeatedKey] = []

    /// A key given again: where it was first given and where again.
    public struct RepeatedKey: Sendable, Equatable {
        public var key: String
        public var firstLine: Int
        public var line: Int

        /// The validators' warning.
        public var warning: String {
            "key \"\(key)\" is given again on line \(line) (first on line \(firstLine)): only the last value is used"
        }
    }

    /// Creates a strings file from entries.
    /// - Parameter entries: Keys and translations.
    public init(entries: [String: String]) {
        self.entries = entries
    }

    /// Parses a `.strings` file.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - fileName: The name used in error messages, such as `fr.lproj/pass.strings`.
    /// - Throws: ``PassModelError`` `invalidStrings` naming the file and line.
    public init(data: Data, fileName: String) throws {
        guard let text = Self.decodeText(data) else {
            throw PassModelError(.invalidStrings, "\(fileName): not UTF-8 text, and no UTF-16 byte order mark")
        }
        var parser = StringsParser(text: text, fileName: fileName)
        entries = try parser.parse()
        repeatedKeys = parser.repeatedKeys
    }

    private static func decodeText(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) { return String(data: data.dropFirst(2), encoding: .utf16LittleEndian) }
        if bytes.starts(with: [0xFE, 0xFF]) { return String(data: data.dropFirst(2), encoding: .utf16BigEndian) }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let text = String(decoding: body, as: UTF8.self)
        return text.utf8.elementsEqual(body) ? text : nil
    }
}

private struct StringsParser {
    let scalars: [Unicode.Scalar]
    let fileName: String
    var index = 0
    var line = 1
    var firstLines: [String: Int] = [:]
    var repeatedKeys: [StringsFile.RepeatedKey] = []

    init(text: String, fileName: String) {
        scalars = Array(text.unicodeScalars)
        self.fileName = fileName
    }

    mutating func parse() throws -> [String: String] {
        var entries: [String: String] = [:]
        while true {
            try skipTrivia()
            guard index < scalars.count else { return entries }
            let keyLine = line
            let key = try token("a quoted key")
            try skipTrivia()
            if let first = firstLines[key] {
                repeatedKeys.append(.init(key: key, firstLine: first, line: keyLine))
            } else {
                firstLines[key] = keyLine
            }
            if peek == ";" {
                index += 1
                entries[key] = key
                continue
            }
            guard peek == "=" else { throw failure("expected '=' after key \"\(key)\"", line: keyLine) }
            index += 1
            try skipTrivia()
            let value = try token("a quoted value for key \"\(key)\"")
            try skipTrivia()
            guard peek == ";" else { throw failure("expected ';' after the value of key \"\(key)\"") }
            index += 1
            entries[key] = value
        }
    }

    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    mutating func advance() -> Unicode.Scalar {
        let scalar = scalars[index]
        index += 1
        if scalar == "\n" { line += 1 }
        return scalar
    }

    mutating func skipTrivia() throws {
        while let scalar = peek {
            if scalar.properties.isWhitespace {
                _ = advance()
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                let startLine = line
                index += 2
                while true {
                    guard index < scalars.count else { throw failure("unterminated /* comment", line: startLine) }
                    if scalars[index] == "*", index + 1 < scalars.count, scalars[index + 1] == "/" {
                        index += 2
                        break
                    }
                    _ = advance()
                }
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while let next = peek, next != "\n" { index += 1 }
            } else {
                return
            }
        }
    }

    static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.-$:/".unicodeScalars.contains(scalar)
    }

    mutating func token(_ what: String) throws -> String {
        guard let first = peek else { throw failure("unexpected end of file, expected \(what)") }
        if first == "\"" { return try quoted() }
        guard Self.isUnquoted(first) else { throw failure("unexpected character '\(first)', expected \(what)") }
        var result = String.UnicodeScalarView()
        while let scalar = peek, Self.isUnquoted(scalar) {
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    mutating func quoted() throws -> String {
        let startLine = line
        index += 1
        var result = String.UnicodeScalarView()
        while true {
            guard index < scalars.count else { throw failure("unterminated string", line: startLine) }
            let scalar = advance()
            switch scalar {
            case "\"":
                return String(result)
            case "\\":
                guard index < scalars.count else { throw failure("unterminated string", line: startLine) }
                let escaped = advance()
                switch escaped {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "0": result.append("\0")
                case "U", "u": result.append(try unicodeEscape())
                default: result.append(escaped)  // \" \\ \' and any other character stand for themselves
                }
            default:
                result.append(scalar)
            }
        }
    }

    mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek, scalar.isASCII, let digit = UInt32(String(scalar), radix: 16) else {
                throw failure("\\U must be followed by 4 hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func unicodeEscape() throws -> Unicode.Scalar {
        var value = try hex4()
        if (0xD800...0xDBFF).contains(value) {
            // A character outside the BMP, written as a UTF-16 surrogate pair of two escapes.
            guard index + 1 < scalars.count, scalars[index] == "\\", scalars[index + 1] == "U" || scalars[index + 1] == "u"
            else { throw failure("unpaired UTF-16 surrogate in \\U escape") }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("invalid UTF-16 surrogate pair in \\U escape") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw failure("unpaired UTF-16 surrogate in \\U escape") }
        return scalar
    }

    func failure(_ message: String, line: Int? = nil) -> PassModelError {
        PassModelError(.invalidStrings, "\(fileName), line \(line ?? self.line): \(message)")
    }
}
