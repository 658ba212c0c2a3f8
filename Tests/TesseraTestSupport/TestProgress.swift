import Foundation

/// One line per stage of the suite's longest tests (`progress: <test>: <stage>`), so a run that stops writing shows
/// where each of them was.
public enum TestProgress {
    /// Writes `progress: <test>: <stage>` to standard output.
    /// - Parameters:
    ///   - test: A short name of the test.
    ///   - stage: What it is about to do or has just done.
    public static func say(_ test: String, _ stage: String) {
        print("progress: \(test): \(stage)")
    }
}
