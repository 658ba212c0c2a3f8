import Foundation

extension PassValidator {
    private static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]

    /// IANA character-set names Wallet can use for barcode messages (compared case-insensitively).
    package static let knownEncodings: Set<String> = [
        "iso-8859-1", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7",
        "iso-8859-8", "iso-8859-9", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15", "iso-8859-16",
        "utf-8", "utf-16", "utf-16be", "utf-16le", "utf-32", "utf-32be", "utf-32le", "us-ascii",
        "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254", "shift_jis", "euc-jp",
        "iso-2022-jp", "gb2312", "gbk", "gb18030", "big5", "euc-kr", "koi8-r", "macintosh",
    ]

    func checkServices(_ pass: Pass, context: inout ValidationContext) {
        checkWebService(pass, context: &context)
        if pass.appLaunchURL != nil, (pass.associatedStoreIdentifiers ?? []).isEmpty {
            context.warning("appLaunchURL", "requires associatedStoreIdentifiers; Wallet ignores it otherwise")
        }
        for (key, identifiers) in [
            ("associatedStoreIdentifiers", pass.associatedStoreIdentifiers),
            ("auxiliaryStoreIdentifiers", pass.auxiliaryStoreIdentifiers),
        ] {
            for (index, identifier) in (identifiers ?? []).enumerated() where identifier <= 0 {
                context.error("\(key)[\(index)]", "must be a positive App Store identifier, found \(identifier)")
            }
        }
        if let nfc = pass.nfc { checkNFC(nfc, context: &context) }
    }

    private func checkWebService(_ pass: Pass, context: inout ValidationContext) {
        if let address = pass.webServiceURL {
            if let url = URL(string: address), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty {
                if scheme == "http" {
                    if Self.loopbackHosts.contains(host.lowercased()) {
                        context.warning("webServiceURL", "http is for development only; devices require https")
                    } else {
                        context.error("webServiceURL", "must use https (http is allowed only for localhost)")
                    }
                } else if scheme != "https" {
                    context.error("webServiceURL", "must be an https URL, found scheme \"\(scheme)\"")
                }
                let path = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
                if path.hasSuffix("/v1") {
                    context.error("webServiceURL", "must not end with /v1 (Wallet appends /v1 itself)")
                }
            } else {
                context.error("webServiceURL", "must be an https URL, found \"\(address)\"")
            }
            if pass.authenticationToken == nil {
                context.error("authenticationToken", "required when webServiceURL is set")
            }
        } else if pass.authenticationToken != nil {
            context.warning("authenticationToken", "needs webServiceURL; Wallet ignores it otherwise")
        }
        if let token = pass.authenticationToken, token.count < 16 {
            context.error("authenticationToken", "must be at least 16 characters, found \(token.count)")
        }
    }

    /// The DER of an EC P-256 SubjectPublicKeyInfo up to its point: SEQUENCE { SEQUENCE { id-ecPublicKey,
    /// prime256v1 }, BIT STRING }, for an uncompressed (65-byte) and a compressed (33-byte) point.
    private static let p256Algorithm: [UInt8] = [
        0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03,
        0x01, 0x07,
    ]

    /// Whether `der` is an X.509 SubjectPublicKeyInfo holding an EC P-256 point (uncompressed or compressed).
    static func isP256SubjectPublicKeyInfo(_ der: [UInt8]) -> Bool {
        for (pointLength, prefixes) in [(65, [UInt8(0x04)]), (33, [0x02, 0x03])] {
            let bitString: [UInt8] = [0x03, UInt8(pointLength + 1), 0x00]
            let body = p256Algorithm + bitString
            let whole = [0x30, UInt8(body.count + pointLength)] + body
            if der.count == whole.count + pointLength, Array(der.prefix(whole.count)) == whole,
               prefixes.contains(der[whole.count]) {
                return true
            }
        }
        return false
    }

    private func checkNFC(_ nfc: PassNFC, context: inout ValidationContext) {
        if let message = nfc.message {
            if message.utf8.count > 64 {
                context.warning("nfc.message", "should be at most 64 bytes, found \(message.utf8.count)")
            }
        } else {
            context.error("nfc.message", "required key is missing")
        }
        if let key = nfc.encryptionPublicKey {
            if let der = Data(base64Encoded: key) {
                if !Self.isP256SubjectPublicKeyInfo([UInt8](der)) {
                    context.error("nfc.encryptionPublicKey", "must be a Base64-encoded X.509 SubjectPublicKeyInfo of an "
                                  + "EC P-256 public key (openssl ec -pubout -outform DER | base64), as the Value Added "
                                  + "Services protocol needs; found \(der.count) bytes of something else")
                }
            } else {
                context.error("nfc.encryptionPublicKey", "must be a Base64-encoded public key")
            }
        } else {
            context.error("nfc.encryptionPublicKey", "required key is missing")
        }
        context.warning("nfc", "needs a pass type certificate with the NFC entitlement; Wallet ignores nfc otherwise")
        Self.warnUnknownKeys(nfc.unknownKeys, at: "nfc", context: &context)
    }

    func checkBarcodes(_ pass: Pass, context: inout ValidationContext) {
        for (index, barcode) in (pass.barcodes ?? []).enumerated() {
            checkBarcode(barcode, path: "barcodes[\(index)]", context: &context)
        }
        if let barcodes = pass.barcodes, let first = barcodes.first?.format, first.needsIOS27,
            !barcodes.dropFirst().contains(where: { $0.format.map { $0.isKnown && !$0.needsIOS27 } ?? false })
        {
            context.warning(
                "barcodes[0].format",
                "iOS 26 and earlier do not show \(first.rawValue) and no barcode they show follows it, so those "
                    + "devices show no barcode; add a QR, PDF417, Aztec or Code 128 barcode after it"
            )
        }
        if let barcode = pass.barcode {
            checkBarcode(barcode, path: "barcode", context: &context)
            if let format = barcode.format, format.needsIOS27 {
                context.warning(
                    "barcode.format",
                    "iOS 26 and earlier do not show \(format.rawValue), and the barcode key is for iOS 8 and earlier; "
                        + "put it in barcodes, followed by a QR, PDF417, Aztec or Code 128 barcode"
                )
            }
            if pass.barcodes == nil {
                context.warning("barcode", "is deprecated since iOS 9; also provide barcodes")
            }
        }
    }

    /// Why a message cannot be written in its `messageEncoding` (ISO-8859-1 and US-ASCII are one byte a character, in
    /// Unicode's composed form: "ë" typed as "e" and a combining diaeresis fits), or by Code 128 (ISO-8859-1 only,
    /// whatever the encoding says, and ASCII only in UTF-8); `nil` when it can.
    static func encodingProblem(_ message: String, encoding: String?, code128: Bool) -> String? {
        let name = encoding?.lowercased().replacingOccurrences(of: "_", with: "-")
        let limits: [(highest: UInt32, name: String)] = [
            name == "iso-8859-1" || name == "latin1" ? (0xFF, "cannot be encoded in iso-8859-1 (messageEncoding)") : nil,
            name == "us-ascii" || name == "ascii" ? (0x7F, "cannot be encoded in us-ascii (messageEncoding)") : nil,
            // Scanners read Code 128 as ISO-8859-1: in UTF-8 anything beyond ASCII is several bytes, read back wrong.
            code128 && (name == "utf-8" || name == "utf8")
                ? (0x7F, "cannot be carried by Code 128 in utf-8 (scanners read it as ISO-8859-1: use messageEncoding iso-8859-1)")
                : nil,
            code128 ? (0xFF, "cannot be carried by Code 128 (ISO-8859-1 characters only)") : nil,
        ].compactMap { $0 }.sorted { $0.highest < $1.highest }
        guard let lowest = limits.first, message.unicodeScalars.contains(where: { $0.value > lowest.highest })
        else { return nil }
        for (offset, character) in message.precomposedStringWithCanonicalMapping.enumerated() {
            if let limit = limits.first(where: { limit in character.unicodeScalars.contains { $0.value > limit.highest } }) {
                return "character \"\(character)\" at position \(offset + 1) \(limit.name)"
            }
        }
        return nil
    }

    private func checkBarcode(_ barcode: PassBarcode, path: @autoclosure () -> String, context: inout ValidationContext) {
        if let format = barcode.format {
            if !format.isKnown { context.error("\(path()).format", Self.unknownValue(format)) }
        } else {
            context.error("\(path()).format", "required key is missing")
        }
        if let message = barcode.message {
            if message.isEmpty {
                context.error("\(path()).message", "is empty: Wallet has nothing to draw")
            } else if let format = barcode.format, let problem = format.problem(withMessage: message) {
                context.error("\(path()).message", problem)
            } else if let problem = Self.encodingProblem(message, encoding: barcode.messageEncoding,
                                                         code128: barcode.format == .code128) {
                context.error("\(path()).message", problem)
            }
        } else {
            context.error("\(path()).message", "required key is missing")
        }
        if let encoding = barcode.messageEncoding {
            if !Self.knownEncodings.contains(encoding.lowercased()) {
                context.error(
                    "\(path()).messageEncoding",
                    "unknown value \"\(encoding)\", expected an IANA character set name such as iso-8859-1 or utf-8"
                )
            }
        } else {
            context.error("\(path()).messageEncoding", "required key is missing (usually iso-8859-1)")
        }
        Self.warnUnknownKeys(barcode.unknownKeys, at: path(), context: &context)
    }
}
