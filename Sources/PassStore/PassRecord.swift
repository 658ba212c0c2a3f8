public import Foundation

/// A pass the web service issued, in its current version.
///
/// The store keeps what it takes to build the pass again (template name and data document) rather than the signed
/// bundle, so a change is one small row update and any server instance can sign the current version.
public struct PassRecord: Sendable, Equatable {
    /// `passTypeIdentifier` of the pass (`pass.com.example.tickets`).
    public var passTypeIdentifier: String
    /// `serialNumber` of the pass, unique within its pass type.
    public var serialNumber: String
    /// The pass's `authenticationToken`: devices send it as `Authorization: ApplePass <token>`.
    public var authenticationToken: String
    /// Folder name of the template under the server's templates directory.
    public var template: String
    /// The data document applied to the template (a JSON object, as `tessera pass create --data` takes).
    public var data: Data
    /// The holder's `requiredPersonalizationInfo` once the pass was personalized (a JSON object), else `nil`.
    public var personalization: Data?
    /// Whether the issuer voided the pass.
    public var voided: Bool
    /// Unguessable token of the holder's download link.
    public var downloadToken: String
    /// The update tag of the pass's last change: strictly increasing across the whole store.
    public var updateTag: Int64
    /// When the pass last changed, to the whole second (the `Last-Modified` of its download).
    public var lastModified: Date
    /// When the pass was created.
    public var createdAt: Date
    /// The content version of its template it is built from (see ``TemplateVersionStore``): a template edited on
    /// disk changes a pass only when a campaign republishes it. `nil` for a pass stored before versions were kept,
    /// until its template is first loaded, which pins it to that version.
    public var templateVersion: String?

    /// Creates a record.
    public init(
        passTypeIdentifier: String, serialNumber: String, authenticationToken: String, template: String, data: Data,
        personalization: Data? = nil, voided: Bool = false, downloadToken: String, updateTag: Int64,
        lastModified: Date, createdAt: Date, templateVersion: String? = nil
    ) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.authenticationToken = authenticationToken
        self.template = template
        self.data = data
        self.personalization = personalization
        self.voided = voided
        self.downloadToken = downloadToken
        self.updateTag = updateTag
        self.lastModified = lastModified
        self.createdAt = createdAt
        self.templateVersion = templateVersion
    }
}

/// What an issuer gives to create a pass; the store assigns the update tag and times.
public struct NewPass: Sendable, Equatable {
    public var passTypeIdentifier: String
    public var serialNumber: String
    public var authenticationToken: String
    public var template: String
    public var data: Data
    public var downloadToken: String
    /// The content version of the template it is built from.
    public var templateVersion: String?

    /// Creates the description of a new pass.
    public init(
        passTypeIdentifier: String, serialNumber: String, authenticationToken: String, template: String, data: Data,
        downloadToken: String, templateVersion: String? = nil
    ) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.authenticationToken = authenticationToken
        self.template = template
        self.data = data
        self.downloadToken = downloadToken
        self.templateVersion = templateVersion
    }
}

/// A change to a pass: each non-nil member replaces the stored value. Every change makes a new version.
public struct PassChange: Sendable, Equatable {
    /// The whole new data document (the caller merges a partial change into the old one).
    public var data: Data?
    /// The new voided state.
    public var voided: Bool?
    /// The holder's personalization information (a JSON object).
    public var personalization: Data?
    /// Apply the change only to a pass that has no personalization yet (checked in the same transaction, so of two
    /// concurrent enrollments one wins and the other changes nothing).
    public var onlyIfNotPersonalized: Bool
    /// Apply the change only while the pass is still at this version (its update tag), checked in the same
    /// transaction: a caller that merged its change into the version it read finds out that another change came first
    /// (the answer is `nil`) instead of writing over it.
    public var onlyIfUpdateTag: Int64?
    /// The template content version to build the pass from from now on (a republished template).
    public var templateVersion: String?

    /// Creates a change.
    public init(data: Data? = nil, voided: Bool? = nil, personalization: Data? = nil, onlyIfNotPersonalized: Bool = false,
                onlyIfUpdateTag: Int64? = nil, templateVersion: String? = nil) {
        self.templateVersion = templateVersion
        self.data = data
        self.voided = voided
        self.personalization = personalization
        self.onlyIfNotPersonalized = onlyIfNotPersonalized
        self.onlyIfUpdateTag = onlyIfUpdateTag
    }
}

/// The result of ``PassStore/updatePass(passTypeIdentifier:serialNumber:change:now:)``.
public struct PassUpdate: Sendable, Equatable {
    /// The pass in its new version.
    public var pass: PassRecord
    /// How many pushes the change queued (one per push token registered for the pass, fewer when some were already
    /// queued for the same push token and pass type).
    public var pushesQueued: Int

    /// Creates an update result.
    public init(pass: PassRecord, pushesQueued: Int) {
        self.pass = pass
        self.pushesQueued = pushesQueued
    }
}
