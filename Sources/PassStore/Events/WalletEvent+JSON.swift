public import Foundation

extension WalletEvent {
    /// `createdAt` as the API writes it: RFC 3339 in UTC with milliseconds.
    public var createdAtText: String {
        createdAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The event as the API and a webhook's body show it: `{"id", "type", "createdAt", "data"}`, with ``id`` as a
    /// decimal string and ``data`` as stored.
    public func jsonBody() -> Data {
        var body = Data(#"{"id":"\#(id)","type":"\#(type)","createdAt":"\#(createdAtText)","data":"#.utf8)
        body.append(data.isEmpty ? Data("{}".utf8) : data)
        body.append(UInt8(ascii: "}"))
        return body
    }
}
