import Foundation

/// Makes Wallet's log messages safe for the server log: identifiers removed, control characters escaped.
///
/// Wallet writes messages such as `Register task (for device 2ab5…, pass type pass.com.example, serial number
/// SER-0001; with web service url https://…) encountered error: …`. Redacted: the word after "serial number",
/// "serial", "device", "token", "identifier", "ApplePass" (and their compounds); values of `key=value` and JSON
/// `"key": "value"` pairs naming an identifier (`pushToken`, `deviceLibraryIdentifier`, `serialNumber`,
/// `authenticationToken`, ...); the identifiers in web service paths (`devices/<id>`, `passes/<type>/<serial>`,
/// `registrations/<type>/<serial>`); and any long run that looks like a token, with or without digits. Then every
/// control character (newline, escape, ...) is written as an escape (`\n`, `\u{1B}`), so a message can neither
/// forge a log line nor drive a terminal.
public enum LogRedactor {
    static let placeholder = "<redacted>"

    /// The redacted, escaped message.
    public static func redact(_ message: String) -> String {
        escapeControlCharacters(redactWords(redactKeyValues(message)))
    }

    /// A request path for an error log: the route's words kept (`/api/v1/passes`, `/download`), every other segment
    /// (a download token, a device library identifier, a pass type, a serial, a session id) written as
    /// `<redacted>`, so a log of failures (a database outage) never holds a credential from a URL.
    public static func requestPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            // A route word: empty, or up to 24 lowercase letters, digits and hyphens starting with a letter.
            let bytes = segment.utf8
            let lower = { (byte: UInt8) in (0x61...0x7A).contains(byte) }
            let routeWord = bytes.isEmpty || (bytes.count <= 24 && lower(bytes.first!)
                && bytes.allSatisfy { lower($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") })
            return routeWord ? String(segment) : placeholder
        }.joined(separator: "/")
    }

    /// Writes control characters (C0, DEL, C1, line and paragraph separators) and the backslash as escapes.
    public static func escapeControlCharacters(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "\\": escaped += "\\\\"
            case _ where scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}":
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Keys whose values are identifiers, compared in lower case without `_` and `-`.
    private static let identifierKeys: Set<String> = [
        "pushtoken", "devicelibraryidentifier", "deviceid", "deviceidentifier", "device", "serialnumber", "serial",
        "authenticationtoken", "authtoken", "token", "applepass", "downloadtoken",
        "personalizationtoken", "orderidentifier", "orderid",
    ]

    /// `key=value`, `key: value`, `"key":"value"` where the key names an identifier.
    /// (Built per use: a `Regex` is not `Sendable`, and messages are few, rate limited and short.) The key is at most
    /// 32 letters (the longest named is 25): unbounded, a long run of letters after a `:` made every starting place
    /// scan to the end of the line and back, a second of CPU for a few messages a device sends.
    private static var keyValue: Regex<AnyRegexOutput> {
        try! Regex(#"(["']?)([A-Za-z_\-]{1,32})(["']?\s*[:=]\s*["']?)([^\s"',;&)}\]]+)"#)
    }

    private static func redactKeyValues(_ message: String) -> String {
        guard message.contains(where: { $0 == "=" || $0 == ":" }) else { return message }
        // Every key named contains one of these: a message with none has no pair to redact.
        let folded = normalized(message)
        guard ["token", "serial", "device", "applepass", "orderid"].contains(where: folded.contains) else { return message }
        return message.replacing(keyValue) { match -> String in
            let whole = String(message[match.range])
            guard let key = match.output[2].substring, let separator = match.output[3].substring,
                  identifierKeys.contains(normalized(key))
            else { return whole }
            let opening = match.output[1].substring ?? ""
            return "\(opening)\(key)\(separator)\(placeholder)"
        }
    }

    private static func normalized(_ word: some StringProtocol) -> String {
        word.lowercased().filter { $0 != "_" && $0 != "-" }
    }

    /// Words that may sit between a trigger and the identifier ("serial number X", "device library identifier X").
    private static let fillers: Set<String> = ["number", "no", "library", "id", "is", "of", ""]
    /// Words after which the next non-filler word is an identifier.
    private static let triggers: Set<String> = [
        "serial", "serialnumber", "device", "deviceid", "devicelibraryidentifier", "token", "pushtoken",
        "authenticationtoken", "identifier", "applepass", "bearer",
    ]

    private static func redactWords(_ message: String) -> String {
        var output = ""
        output.reserveCapacity(message.utf8.count)
        var redactNext = false
        var index = message.startIndex
        while index < message.endIndex {
            // Separators (any whitespace, newlines included) are kept as they are.
            let wordStart = message[index...].firstIndex { !$0.isWhitespace } ?? message.endIndex
            output += message[index..<wordStart]
            guard wordStart < message.endIndex else { break }
            let wordEnd = message[wordStart...].firstIndex(where: \.isWhitespace) ?? message.endIndex
            let word = String(message[wordStart..<wordEnd])
            index = wordEnd

            let lowered = normalized(word.trimmingCharacters(in: .punctuationCharacters))
            let isTrigger = triggers.contains(lowered)
            let isFiller = fillers.contains(lowered)
            if word.hasPrefix("#") { redactNext = false }  // "serial #s task": a count, not a serial number
            let parts = trimmed(word)
            var text = redactPath(word)
            if word.contains(placeholder) {
                redactNext = false  // a key=value pair already redacted
            } else if redactNext, !isTrigger, !isFiller, !parts.core.isEmpty {
                text = parts.leading + placeholder + parts.trailing
                redactNext = false
            } else if looksLikeIdentifier(parts.core) {
                text = parts.leading + placeholder + parts.trailing
            }
            if isTrigger { redactNext = true }
            output += text
        }
        return output
    }

    /// A word split into leading punctuation, the core and trailing punctuation.
    private static func trimmed(_ word: String) -> (leading: String, core: String, trailing: String) {
        let marks = CharacterSet(charactersIn: "()[]{}<>,;:.\"'!?")
        let scalars = Array(word.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, marks.contains(scalars[start]) { start += 1 }
        while end > start, marks.contains(scalars[end - 1]) { end -= 1 }
        func text(_ range: Range<Int>) -> String {
            var string = ""
            string.unicodeScalars.append(contentsOf: scalars[range])
            return string
        }
        return (text(0..<start), text(start..<end), text(end..<scalars.count))
    }

    private static func redactPath(_ word: String) -> String {
        guard word.contains("/") else { return word }
        var parts = word.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for index in parts.indices {
            switch parts[index] {
            case "devices" where index + 1 < parts.count:
                parts[index + 1] = placeholder
            case "registrations", "passes", "orders":
                if index + 2 < parts.count { parts[index + 2] = placeholder }
            default: break
            }
        }
        return parts.joined(separator: "/")
    }

    /// A run of 16+ letters, digits, `-` or `_` that is not an ordinary word: it has a digit, mixes case past its
    /// first letter, or is 24+ characters long (device library identifiers, push tokens, authentication tokens).
    private static func looksLikeIdentifier(_ core: String) -> Bool {
        guard core.utf8.count >= 16, core != placeholder,
              core.utf8.allSatisfy({ $0.isLetterOrDigitASCII || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return false }
        let bytes = Array(core.utf8)
        let hasDigit = bytes.contains { (0x30...0x39).contains($0) }
        let upperAfterFirst = bytes.dropFirst().contains { (0x41...0x5A).contains($0) }
        let hasLower = bytes.contains { (0x61...0x7A).contains($0) }
        return hasDigit || (upperAfterFirst && hasLower) || bytes.count >= 24
    }
}
