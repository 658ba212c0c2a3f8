import Foundation
@testable import GoogleWallet
import PassModel
import Testing

@Suite("Google Wallet object patches")
struct GooglePatchBodyTests {
    @Test("a member the pass no longer gives is sent as null (cleared); members the object's kind lacks are not named")
    func clearsWhatThePassNoLongerGives() {
        let object: JSONValue = ["id": "3388.pass.G-1", "classId": "3388.generic", "state": "ACTIVE",
                                 "barcode": ["type": "QR_CODE", "value": "G-1"], "cardTitle": ["defaultValue": ["language": "en", "value": "T"]]]
        let generic = GoogleWalletClient.patchBody(object, vertical: .generic)
        #expect(generic["barcode"] == object["barcode"] && generic["state"] == "ACTIVE")
        #expect(generic["heroImage"] == .null && generic["textModulesData"] == .null && generic["validTimeInterval"] == .null)
        #expect(generic["loyaltyPoints"] == nil && generic["seatInfo"] == nil, "not members of a generic object")
        #expect(generic["messages"] == nil, "Google's messages are never touched")
        let loyalty = GoogleWalletClient.patchBody(object, vertical: .loyalty)
        #expect(loyalty["loyaltyPoints"] == .null && loyalty["accountId"] == .null)
        let ticket = GoogleWalletClient.patchBody(object, vertical: .eventTicket)
        #expect(ticket["seatInfo"] == .null && ticket["ticketHolderName"] == .null)
    }
}
