import Foundation
import Hummingbird
import PassWebService

/// Reading the identifiers of a request's path: percent-decoded and checked with ``PathSegments``' rules, so a
/// malformed one gets 400 naming it before any lookup.
extension PathSegments {
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
