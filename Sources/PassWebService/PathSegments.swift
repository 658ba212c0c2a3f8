import TesseraHTTP
import Foundation
import HTTPTypes
import Hummingbird

/// Checks of the identifiers that arrive as URL path segments, so malformed ones get 400 before any lookup.
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

    /// Letters, digits, `.-_` (devices send a hexadecimal identifier).
    public static func isValidDeviceLibraryIdentifier(_ value: String) -> Bool {
        isValid(value) { $0.isLetterOrDigitASCII || ".-_".utf8.contains($0) }
    }

    private static func isValid(_ value: String, allowing allowed: (UInt8) -> Bool) -> Bool {
        !value.isEmpty && value.utf8.count <= maximumLength && value.utf8.allSatisfy(allowed)
    }

    /// Reads a path parameter, percent-decoded (clients encode `@ : + =`), and checks it, throwing 400 naming the
    /// parameter when it is malformed.
    static func parameter(
        _ name: String, in context: some RequestContext, valid: (String) -> Bool
    ) throws -> String {
        guard let raw = context.parameters.get(name), let value = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding : raw,
              valid(value)
        else {
            throw WebServiceError.invalid(name, "malformed \(name) in the path")
        }
        return value
    }

    static func passTypeIdentifier(in context: some RequestContext) throws -> String {
        try parameter("passTypeIdentifier", in: context, valid: isValidPassTypeIdentifier)
    }

    static func serialNumber(in context: some RequestContext) throws -> String {
        try parameter("serialNumber", in: context, valid: isValidSerialNumber)
    }

    static func deviceLibraryIdentifier(in context: some RequestContext) throws -> String {
        try parameter("deviceLibraryIdentifier", in: context, valid: isValidDeviceLibraryIdentifier)
    }
}

extension UInt8 {
    var isLetterOrDigitASCII: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
