internal import COpenSSL
public import Foundation

/// A distinguished name as an ordered list of attribute short names and values.
public struct DistinguishedName: Sendable, Equatable, CustomStringConvertible {
    /// The attributes in certificate order, e.g. `("UID", "pass.com.example")`, `("CN", "Pass Type ID: ...")`.
    public var attributes: [(name: String, value: String)]

    /// Creates a name.
    /// - Parameter attributes: Short name (`CN`, `OU`, `O`, `C`, `UID`, ...) and value pairs.
    public init(_ attributes: [(name: String, value: String)]) {
        self.attributes = attributes
    }

    /// The first value of the attribute with this short name.
    /// - Parameter name: A short name such as `CN`.
    public subscript(name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// `CN=..., OU=..., O=...` in certificate order.
    public var oneLine: String { attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ", ") }

    /// Same as ``oneLine``.
    public var description: String { oneLine }

    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool {
        lhs.attributes.map { "\($0.name)=\($0.value)" } == rhs.attributes.map { "\($0.name)=\($0.value)" }
    }

    init(x509Name name: OpaquePointer?) {
        var attributes: [(name: String, value: String)] = []
        if let name {
            for index in 0..<X509_NAME_entry_count(name) {
                guard let entry = X509_NAME_get_entry(name, index) else { continue }
                let nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry))
                let shortName = nid == NID_undef ? "?" : String(cString: OBJ_nid2sn(nid))
                var utf8: UnsafeMutablePointer<UInt8>?
                let length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry))
                guard length >= 0, let utf8 else { continue }
                attributes.append((shortName == "userId" ? "UID" : shortName,
                                   String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)))
                tessera_OPENSSL_free(utf8)
            }
        }
        self.attributes = attributes
    }
}

extension Certificate {
    /// The subject name.
    public var subject: DistinguishedName { DistinguishedName(x509Name: X509_get_subject_name(pointer)) }
    /// The issuer name.
    public var issuer: DistinguishedName { DistinguishedName(x509Name: X509_get_issuer_name(pointer)) }

    /// The raw value (the DER inside the extension's OCTET STRING) of the extension with this dotted OID.
    /// - Parameter oid: A dotted object identifier such as `1.2.840.113635.100.6.1.16`.
    /// - Returns: The extension's DER value, or `nil` when absent.
    public func extensionValue(oid: String) -> Data? {
        guard let object = OBJ_txt2obj(oid, 1) else { return nil }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(pointer, object, -1)
        guard index >= 0, let ext = X509_get_ext(pointer, index), let octets = X509_EXTENSION_get_data(ext) else {
            return nil
        }
        guard let bytes = ASN1_STRING_get0_data(octets) else { return Data() }
        return Data(bytes: bytes, count: Int(ASN1_STRING_length(octets)))
    }

    /// The text carried by an extension whose value is a DER string (UTF8String, IA5String, PrintableString),
    /// or the raw bytes as UTF-8 when it is not DER.
    /// - Parameter oid: A dotted object identifier.
    /// - Returns: The text, or `nil` when the extension is absent.
    public func extensionText(oid: String) -> String? {
        guard let value = extensionValue(oid: oid) else { return nil }
        let bytes = [UInt8](value)
        if bytes.count >= 2, [0x0C, 0x13, 0x16].contains(bytes[0]) {
            var length = Int(bytes[1])
            var offset = 2
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard count <= 2, bytes.count >= 2 + count else { return nil }
                length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
                offset = 2 + count
            }
            if bytes.count >= offset + length {
                return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
