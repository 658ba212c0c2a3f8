import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOFoundationCompat
import PassModel

/// The service account's OAuth 2.0 access token (JWT bearer grant, RFC 7523), fetched from the account's
/// `token_uri` and reused until five minutes before it expires.
actor GoogleAccessToken {
    /// The scope Google Wallet's API needs.
    static let scope = "https://www.googleapis.com/auth/wallet_object.issuer"
    private let account: GoogleServiceAccount
    private let now: @Sendable () -> Date
    private var cached: (token: String, expires: Date)?
    private var pending: Task<(String, Date), any Error>?

    init(account: GoogleServiceAccount, now: @escaping @Sendable () -> Date = Date.init) {
        self.account = account
        self.now = now
    }

    /// The cached token, or a new one; callers waiting at the same time share one request.
    func token(using http: HTTPClient) async throws(GoogleAPIError) -> String {
        if let cached, now() < cached.expires.addingTimeInterval(-300) { return cached.token }
        let task: Task<(String, Date), any Error>
        if let pending {
            task = pending
        } else {
            let (account, now) = (account, now)
            task = Task { try await Self.fetch(account: account, http: http, now: now()) }
            pending = task
        }
        do {
            let (token, expires) = try await task.value
            cached = (token, expires)
            pending = nil
            return token
        } catch {
            pending = nil
            if let error = error as? GoogleAPIError { throw error }
            throw GoogleAPIError(status: nil, reason: "access token: \(error)", retryable: true)
        }
    }

    /// Forgets the cached token (after a 401).
    func invalidate() { cached = nil }

    private static func fetch(account: GoogleServiceAccount, http: HTTPClient, now: Date) async throws -> (String, Date) {
        let issued = Int(now.timeIntervalSince1970)
        let claims = GoogleJWTClaims([
            "iss": .string(account.clientEmail), "scope": .string(scope), "aud": .string(account.tokenURI.absoluteString),
            "iat": .integer(issued), "exp": .integer(issued + 3600),
        ])
        let assertion = try await account.sign(claims, type: "JWT")
        var request = HTTPClientRequest(url: account.tokenURI.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        request.body = .bytes(ByteBuffer(string: form))
        let (status, body) = try await GoogleWalletClient.perform(request, on: http, timeout: .seconds(20))
        guard status == 200, let json = try? JSONValue(jsonData: body), let token = json["access_token"]?.stringValue else {
            // Always worth retrying: without a token no pass can be sent, whatever the pass. A refused grant (a
            // deleted or rotated key, a skewed clock) is the account's fault, not each pass's: the queue waits for it
            // to be fixed rather than dropping every update as refused.
            throw GoogleAPIError(status: status, reason: "access token from \(account.tokenURI.absoluteString): \(status) \(GoogleWalletClient.message(in: body))",
                                 retryable: true)
        }
        let lifetime = json["expires_in"]?.doubleValue ?? 3600
        return (token, now.addingTimeInterval(lifetime))
    }
}
