import PassModel
import Crypto
import PassCrypto
import Foundation
import HTTPTypes
import PaymentToken

/// A card payment made on the sheet's payment step (``MerchantConfiguration/PaymentStepConfiguration``): the
/// gateway's single-use token for the card and what may be shown of it, never the card number. Tessera checks it,
/// claims the session with it and hands it to the payment processor, which charges it through the gateway.
public struct CardPayment: Codable, Sendable, Equatable {
    /// The gateway's token for the card (a payment method or token identifier, or the element's encrypted card
    /// data): 1 to 8,192 printable ASCII characters.
    public var token: String
    /// The card network the element reported, such as `Visa`.
    public var network: String?
    /// The last four digits the element reported.
    public var lastFour: String?
    /// `debit`, `credit`, `prepaid` or `store`, when the element reported it.
    public var type: String?
    /// The total the buyer confirmed, as the sheet showed it (`83.20`): when given, a session whose total is another
    /// (changed by an update the sheet had not shown yet) is refused with `amountMismatch` before anything is charged,
    /// as an Apple Pay token's amount is.
    public var amount: String?

    /// Creates a card payment.
    /// - Parameters:
    ///   - token: The gateway's token.
    ///   - network: The network.
    ///   - lastFour: The last four digits.
    ///   - type: The card type.
    ///   - amount: The total the buyer confirmed.
    public init(token: String, network: String? = nil, lastFour: String? = nil, type: String? = nil,
                amount: String? = nil) {
        self.token = token
        self.network = network
        self.lastFour = lastFour
        self.type = type
        self.amount = amount
    }

    /// What Tessera records to refuse the same token twice: `card-` and the SHA-256 of the token in hex (the token
    /// itself is kept only with the held authorization, for recovery).
    public var transactionIdentifier: String {
        "card-" + Hex.encode(SHA256.hash(data: Data(token.utf8)))
    }

    /// The first problem with the posted fields, as `(field, what is wrong)`, or `nil`.
    var problem: (field: String, reason: String)? {
        if Self.looksLikeCardNumber(token) {
            return ("cardPayment.token", "looks like a card number: the payment step must send the gateway's token, "
                        + "never the number")
        }
        guard (1...8192).contains(token.utf8.count), token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return ("cardPayment.token", "must be the gateway's token: 1 to 8,192 printable characters without spaces")
        }
        if let network, !(1...32).contains(network.count) || !network.allSatisfy({ $0.isLetter || $0 == " " }) {
            return ("cardPayment.network", "must be a network name such as Visa (letters, at most 32)")
        }
        if let lastFour, lastFour.count != 4 || !lastFour.allSatisfy({ ("0"..."9").contains($0) }) {
            return ("cardPayment.lastFour", "must be the card's last four digits")
        }
        if let type, !["debit", "credit", "prepaid", "store"].contains(type) {
            return ("cardPayment.type", "must be debit, credit, prepaid or store")
        }
        if let amount, amountValue == nil || amount.count > 32 {
            return ("cardPayment.amount", "must be the total as a decimal number such as 83.20")
        }
        return nil
    }

    /// ``amount`` as a number: digits with at most one `.` between digits, nothing else.
    var amountValue: Decimal? {
        guard let amount else { return nil }
        let parts = amount.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } })
        else { return nil }
        return Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// 12 to 19 digits (spaces and hyphens aside) that pass the Luhn check: a primary account number.
    static func looksLikeCardNumber(_ text: String) -> Bool {
        let kept = text.filter { $0 != " " && $0 != "-" }
        guard (12...19).contains(kept.count), kept.allSatisfy({ ("0"..."9").contains($0) }) else { return false }
        var sum = 0
        for (index, character) in kept.reversed().enumerated() {
            var digit = Int(String(character))!
            if index % 2 == 1 { digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2 }
            sum += digit
        }
        return sum % 10 == 0
    }
}

/// The payment posted to `authorize`: Apple Pay's (`{"token": ...}`) or the sheet's payment step's
/// (`{"cardPayment": ...}`), each with the buyer's contacts. The held authorization keeps the posted bytes, so
/// recovery reads them back the same way.
enum PostedPayment: Sendable {
    case applePay(ApplePayPaymentToken)
    case card(CardPayment)

    /// Reads a posted body: a card payment when it has `cardPayment`, an Apple Pay payment otherwise.
    static func parse(_ body: Data) throws -> (PostedPayment, CheckoutService.PaymentContacts) {
        struct CardBody: Decodable { var cardPayment: CardPayment? }
        let object = (try? JSONValue(jsonData: body))?.objectValue
        guard object?["cardPayment"] != nil else {
            let (token, contacts) = try CheckoutService.parsePayment(body)
            return (.applePay(token), contacts)
        }
        guard object?["token"] == nil else {
            throw AuthorizationFailure(.badRequest, code: "malformedPayment", "The payment could not be read.",
                                       detail: "give either token (Apple Pay) or cardPayment, not both")
        }
        let card: CardPayment
        do {
            guard let decoded = try JSONDecoder().decode(CardBody.self, from: body).cardPayment else {
                throw DecodingError.valueNotFound(CardPayment.self, .init(codingPath: [], debugDescription: "null"))
            }
            card = decoded
        } catch {
            throw AuthorizationFailure(.badRequest, code: "malformedPayment",
                                       "cardPayment must be an object with a string token (and optional network, "
                                           + "lastFour and type strings).")
        }
        if let problem = card.problem {
            throw AuthorizationFailure(.badRequest, code: "malformedPayment", "\(problem.field) \(problem.reason).")
        }
        let contacts: CheckoutService.PaymentContacts
        do {
            contacts = try JSONDecoder().decode(CheckoutService.PaymentContacts.self, from: body)
        } catch {
            throw AuthorizationFailure(.badRequest, code: "malformedPayment",
                                       "The payment's contact details could not be read.",
                                       detail: "billingContact or shippingContact is malformed: \(error)")
        }
        return (.card(card), contacts)
    }

    /// The identifier the claim records, so the same payment is never used twice.
    var transactionIdentifier: String {
        switch self {
        case .applePay(let token): token.header.transactionIdHex
        case .card(let card): card.transactionIdentifier
        }
    }
}
