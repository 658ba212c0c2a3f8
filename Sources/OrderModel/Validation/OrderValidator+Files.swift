public import Foundation
public import PassModel

extension OrderValidator {
    /// Every image `order.json` names, with its JSON path: the merchant's logo, each line item's image (of the order,
    /// its fulfillments and its returns) and the order provider's logos.
    /// - Parameter order: The order.
    /// - Returns: `(path, file)` pairs in the order they appear.
    public static func imageReferences(in order: Order) -> [(path: String, file: String)] {
        var references: [(path: String, file: String)] = []
        if let logo = order.merchant?.logo, !logo.isEmpty { references.append(("merchant.logo", logo)) }
        func items(_ lineItems: [OrderLineItem]?, at prefix: String) {
            for (index, item) in (lineItems ?? []).enumerated() {
                if let image = item.image, !image.isEmpty { references.append(("\(prefix)lineItems[\(index)].image", image)) }
            }
        }
        items(order.lineItems, at: "")
        for (index, fulfillment) in (order.fulfillments ?? []).enumerated() {
            switch fulfillment {
            case .shipping(let shipping): items(shipping.lineItems, at: "fulfillments[\(index)].")
            case .pickup(let pickup): items(pickup.lineItems, at: "fulfillments[\(index)].")
            }
        }
        for (index, item) in (order.returns ?? []).enumerated() { items(item.lineItems, at: "returns[\(index)].") }
        if let provider = order.orderProvider {
            for (key, name) in [("trackingLogoNameDarkColorScheme", provider.trackingLogoNameDarkColorScheme),
                                ("trackingLogoNameLightColorScheme", provider.trackingLogoNameLightColorScheme)] {
                if let name, !name.isEmpty { references.append(("orderProvider.\(key)", name)) }
            }
        }
        return references
    }

    /// Every document `order.json` names, with its JSON path: transactions' receipts and returns' labels.
    /// - Parameter order: The order.
    /// - Returns: `(path, file)` pairs in the order they appear.
    static func documentReferences(in order: Order) -> [(path: String, file: String)] {
        var references: [(path: String, file: String)] = []
        for (index, transaction) in (order.payment?.transactions ?? []).enumerated() {
            if let receipt = transaction.receipt { references.append(("payment.transactions[\(index)].receipt", receipt)) }
        }
        for (index, item) in (order.returns ?? []).enumerated() {
            if let label = item.returnLabel { references.append(("returns[\(index)].returnLabel", label)) }
        }
        return references
    }

    /// The bundle file a reference names: the name itself, or (as Apple's examples write images, without scale or
    /// extension) `name.png`, `name@2x.png`, `name@3x.png`, `name.jpg` or `name.jpeg`, at the root or in a
    /// localization folder.
    /// - Parameters:
    ///   - name: The name in `order.json`.
    ///   - files: The bundle's files by path.
    /// - Returns: The file's path and bytes, or `nil`.
    public static func resolve(_ name: String, in files: [String: Data]) -> (path: String, data: Data)? {
        resolveAll(name, in: files).first
    }

    /// Every bundle file a reference names, in the order ``resolve(_:in:)`` prefers them: for the first form of the
    /// name the bundle has, the root file, then each localization folder's in path order (a device shows its own
    /// language's, so each one must be checked).
    /// - Parameters:
    ///   - name: The name in `order.json`.
    ///   - files: The bundle's files by path.
    /// - Returns: The files' paths and bytes; empty when there is none.
    public static func resolveAll(_ name: String, in files: [String: Data]) -> [(path: String, data: Data)] {
        for candidate in [name] + [".png", "@2x.png", "@3x.png", ".jpg", ".jpeg"].map({ name + $0 }) {
            var found: [(path: String, data: Data)] = files[candidate].map { [(candidate, $0)] } ?? []
            found += files.filter { $0.key.hasSuffix(".lproj/\(candidate)") }.sorted { $0.key < $1.key }
                .map { ($0.key, $0.value) }
            if !found.isEmpty { return found }
        }
        return []
    }

    /// A bundle's files with each PNG read whole once, for validating many orders made from one template
    /// (``OrderTemplate/preparedFiles``): reading an image whole inflates it, which costs more than the rest of an
    /// order's checks together.
    public struct PreparedFiles: Sendable {
        /// The files by relative path.
        public let files: [String: Data]
        /// Why each PNG file that does not read whole is refused, by path.
        let pngProblems: [String: String]

        /// Reads every `.png` file whole.
        /// - Parameter files: The bundle's files other than `order.json`, by relative path.
        public init(files: [String: Data]) {
            self.files = files
            var problems: [String: String] = [:]
            for (path, data) in files where path.lowercased().hasSuffix(".png") {
                do {
                    try PNGInfo.checkWhole(data)  // the whole file: a device must draw it
                } catch {
                    problems[path] = "\(error)"
                }
            }
            pngProblems = problems
        }
    }

    func checkFiles(_ order: Order, files prepared: PreparedFiles, context: inout ValidationContext) {
        let files = prepared.files
        var checked: Set<String> = []
        for (path, file) in Self.imageReferences(in: order) {
            let resolved = Self.resolveAll(file, in: files)
            if resolved.isEmpty { context.error(path, "\"\(file)\" is not in the bundle") }
            for (found, data) in resolved where checked.insert(found).inserted {
                if data.count > Self.maximumImageSize {
                    context.error(found, "\(data.count) bytes; an order image may have at most \(Self.maximumImageSize >> 20) MiB")
                }
                let lowered = found.lowercased()
                if lowered.hasSuffix(".png") {
                    if let problem = prepared.pngProblems[found] { context.error(found, "not a readable PNG: \(problem)") }
                } else if !lowered.hasSuffix(".jpg") && !lowered.hasSuffix(".jpeg") {
                    context.error(path, "\"\(file)\" must be a PNG or JPEG image")
                }
            }
        }
        for (path, file) in Self.documentReferences(in: order) {
            let resolved = Self.resolveAll(file, in: files)
            if resolved.isEmpty { context.error(path, "\"\(file)\" is not in the bundle") }
            for (found, _) in resolved
            where !["pdf", "png", "jpg", "jpeg"].contains(found.split(separator: ".").last.map { $0.lowercased() } ?? "") {
                context.error(path, "\"\(file)\" must be a PDF, PNG or JPEG file (\(found))")
            }
        }
        let total = files.values.reduce(0) { $0 + $1.count }
        if total >= Self.maximumBundleSize {
            context.error("order", "the files add up to \(total) bytes; Wallet takes orders below \(Self.maximumBundleSize >> 20) MB")
        }
        for name in files.keys.sorted() where name.hasSuffix(".lproj/order.strings") {
            do {
                let strings = try StringsFile(data: files[name] ?? Data(), fileName: name)
                for repeated in strings.repeatedKeys {
                    context.warning(name, repeated.warning)
                }
            } catch let error as PassModelError {
                context.error(name, error.reason)
            } catch {
                context.error(name, "\(error)")
            }
        }
        for name in files.keys.sorted() {
            let components = name.split(separator: "/")
            if components.count > 2 || (components.count == 2 && !components[0].hasSuffix(".lproj")) {
                context.error(name, "file inside a folder that is not an xx.lproj localization")
            }
        }
    }
}
