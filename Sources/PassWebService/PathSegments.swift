import Foundation

/// The rules for the identifiers that travel in URL path segments (serial numbers, type identifiers, device
/// identifiers): the issuers apply them to new items, the HTTP layer to every path before any lookup.
public enum PathSegments {
    /// Longest accepted device library identifier, pass type identifier or serial number.
    public static let maximumLength = 128

    /// Characters allowed in a serial number: URL-safe without escaping (letters, digits, `.-_~:@+=`); `.` and `..`
    /// are refused, as URLs cannot reach them (clients and proxies resolve them as dot-segments).
    public static func isValidSerialNumber(_ value: String) -> Bool {
        value != "." && value != ".." && isValid(value) { $0.isLetterOrDigitASCII || ".-_~:@+=".utf8.contains($0) }
    }

    /// `pass.` followed by reverse-DNS characters (letters, digits, `.-_`), as Apple issues them.
    public static func isValidPassTypeIdentifier(_ value: String) -> Bool {
        value.hasPrefix("pass.") && value.count > 5 && isValid(value) { $0.isLetterOrDigitASCII || ".-_".utf8.contains($0) }
    }

    /// `order.` followed by reverse-DNS characters (letters, digits, `.-_`), as Apple issues them.
    public static func isValidOrderTypeIdentifier(_ value: String) -> Bool {
        value.hasPrefix("order.") && value.count > 6 && isValid(value) { $0.isLetterOrDigitASCII || ".-_".utf8.contains($0) }
    }

    /// Letters, digits, `.-_` (devices send a hexadecimal identifier).
    public static func isValidDeviceLibraryIdentifier(_ value: String) -> Bool {
        isValid(value) { $0.isLetterOrDigitASCII || ".-_".utf8.contains($0) }
    }

    private static func isValid(_ value: String, allowing allowed: (UInt8) -> Bool) -> Bool {
        !value.isEmpty && value.utf8.count <= maximumLength && value.utf8.allSatisfy(allowed)
    }
}

extension UInt8 {
    var isLetterOrDigitASCII: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
