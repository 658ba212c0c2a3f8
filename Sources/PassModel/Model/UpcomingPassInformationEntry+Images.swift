extension UpcomingPassInformationEntry {
    /// The remote images of an upcoming event's details view (Apple's `images`).
    public struct Images: Codable, Sendable, Equatable {
        /// The header image of the details view.
        public var headerImage: Image?
        /// The venue map of the event guide.
        public var venueMap: Image?
        /// Keys this model does not know, written back as they were read.
        public var unknownKeys: [String: JSONValue]

        /// Creates the images of an entry.
        /// - Parameters:
        ///   - headerImage: The header image.
        ///   - venueMap: The venue map.
        public init(headerImage: Image? = nil, venueMap: Image? = nil) {
            self.headerImage = headerImage
            self.venueMap = venueMap
            unknownKeys = [:]
        }

        static let knownKeys: Set<String> = ["headerImage", "venueMap"]

        /// Decodes the images, keeping unknown keys.
        /// - Parameter decoder: The decoder to read from.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            headerImage = try c.decode("headerImage")
            venueMap = try c.decode("venueMap")
            unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
        }

        /// Encodes the images, unknown keys included.
        /// - Parameter encoder: The encoder to write to.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode(headerImage, "headerImage")
            try c.encode(venueMap, "venueMap")
            try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
        }
    }

    /// One remote image: the files Wallet downloads, one per scale, or the pass's own image of that kind.
    public struct Image: Codable, Sendable, Equatable {
        /// The files to download (Apple's `URLs`); Wallet takes the one that best fits the screen's scale.
        public var urls: [ImageURLEntry]?
        /// Whether Wallet uses the pass's own image of that kind instead of downloading one.
        public var reuseExisting: Bool?
        /// Keys this model does not know, written back as they were read.
        public var unknownKeys: [String: JSONValue]

        /// Creates a remote image.
        /// - Parameters:
        ///   - urls: The files to download.
        ///   - reuseExisting: Whether to use the pass's own image instead.
        public init(urls: [ImageURLEntry]?, reuseExisting: Bool? = nil) {
            self.urls = urls
            self.reuseExisting = reuseExisting
            unknownKeys = [:]
        }

        static let knownKeys: Set<String> = ["URLs", "reuseExisting"]

        /// Decodes the image, keeping unknown keys.
        /// - Parameter decoder: The decoder to read from.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            urls = try c.decode("URLs")
            reuseExisting = try c.decode("reuseExisting")
            unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
        }

        /// Encodes the image, unknown keys included.
        /// - Parameter encoder: The encoder to write to.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode(urls, "URLs")
            try c.encode(reuseExisting, "reuseExisting")
            try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
        }
    }

    /// One downloadable image file (Apple's `ImageURLEntry`): where it is, its SHA-256, scale and size.
    public struct ImageURLEntry: Codable, Sendable, Equatable {
        /// The `https` URL of the file (Apple's `URL`); required.
        public var url: String?
        /// The SHA-256 of the file as 64 hexadecimal digits (Apple's `SHA256`); required.
        public var sha256: String?
        /// The scale the file is drawn for; 1 when absent.
        public var scale: Double?
        /// The file's size in bytes; at most 2 MB.
        public var size: Int?
        /// Keys this model does not know, written back as they were read.
        public var unknownKeys: [String: JSONValue]

        /// The largest file Wallet downloads: 2 megabytes.
        public static let maximumSize = 2 * 1024 * 1024

        /// Creates an image file entry.
        /// - Parameters:
        ///   - url: The `https` URL of the file.
        ///   - sha256: Its SHA-256, 64 hexadecimal digits.
        ///   - scale: The scale it is drawn for.
        ///   - size: Its size in bytes.
        public init(url: String?, sha256: String?, scale: Double? = nil, size: Int? = nil) {
            self.url = url
            self.sha256 = sha256
            self.scale = scale
            self.size = size
            unknownKeys = [:]
        }

        static let knownKeys: Set<String> = ["URL", "SHA256", "scale", "size"]

        /// Decodes the entry, keeping unknown keys.
        /// - Parameter decoder: The decoder to read from.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            url = try c.decode("URL")
            sha256 = try c.decode("SHA256")
            scale = try c.decode("scale")
            size = try c.decode("size")
            unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
        }

        /// Encodes the entry, unknown keys included.
        /// - Parameter encoder: The encoder to write to.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode(url, "URL")
            try c.encode(sha256, "SHA256")
            try c.encode(scale, "scale")
            try c.encode(size, "size")
            try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
        }
    }
}
