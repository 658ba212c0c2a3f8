import Markup
import Testing

@Suite("HTML and XML escaping")
struct MarkupTextTests {
    @Test func htmlEscapesTheFiveReservedCharactersAndKeepsTheRest() {
        #expect(MarkupText.html(#"<a href="x">Tom & Jerry's</a>"#)
            == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
        #expect(MarkupText.html(" café\tline\n ") == " café\tline\n ")
        #expect(MarkupText.html("") == "")
    }

    @Test func xmlEscapesDropsWhatXMLCannotHoldAndTrims() {
        #expect(MarkupText.xml(#" <b>"Tom" & 'Jerry'</b> "#) == "&lt;b&gt;&quot;Tom&quot; &amp; &apos;Jerry&apos;&lt;/b&gt;")
        #expect(MarkupText.xml("a\tb\nc\rd") == "a b c d")
        #expect(MarkupText.xml("a\u{0}\u{1B}b\u{FFFE}\u{FFFF}c") == "abc")
        #expect(MarkupText.xml("\n  ") == "")
    }

    @Test func aCombiningMarkDoesNotHideAReservedCharacter() {
        // `"` and U+0301 form one Character; the quote must still be escaped, or it would end an attribute value.
        #expect(MarkupText.html("\"\u{301}") == "&quot;\u{301}")
        #expect(MarkupText.html("<\u{301}") == "&lt;\u{301}")
        #expect(MarkupText.xml("&\u{301}") == "&amp;\u{301}")
    }
}
