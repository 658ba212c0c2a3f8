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

    /// Reads a path parameter, percent-decoded (clients encode `@ : + =`), and checks it, throwing 400 naming the
    /// parameter (or `field`, the protocol's name for it) when it is malformed.
    static func parameter(
        _ name: String, field: String? = nil, in context: some RequestContext, valid: (String) -> Bool
    ) throws -> String {
        guard let raw = context.parameters.get(name), let value = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding : raw,
              valid(value)
        else {
            throw WebServiceError.invalid(field ?? name, "malformed \(field ?? name) in the path")
        }
        return value
    }

    /// The type identifier of a device request, checked for its kind; errors name the kind's field.
    static func typeIdentifier(of kind: DeviceProtocolKind, in context: some RequestContext) throws -> String {
        try parameter("passTypeIdentifier", field: kind.typeField, in: context, valid: kind.isValidTypeIdentifier)
    }

    /// The item identifier of a device request (serial number, order identifier); errors name the kind's field.
    static func itemIdentifier(of kind: DeviceProtocolKind, in context: some RequestContext) throws -> String {
        try parameter("serialNumber", field: kind.identifierField, in: context, valid: isValidSerialNumber)
    }

    /// The device of a device request; errors name the kind's field.
    static func device(of kind: DeviceProtocolKind, in context: some RequestContext) throws -> String {
        try parameter("deviceLibraryIdentifier", field: kind.deviceField, in: context, valid: isValidDeviceLibraryIdentifier)
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
