import Foundation

extension MemoryPassStore {
    /// What is owed to a push token a device replaced goes to its new one (as the database stores do): queued
    /// pushes, with a new generation (a send in flight to the old token leaves it for the next claim), and the pushes
    /// campaigns owe; an entry the new token already has for a type is kept and the old token's dropped. While
    /// another device still has the old token (`shared`), its queued pushes stay and the new token gets its own.
    func movePushes(from old: String, to new: String, shared: Bool, now: Date) {
        if shared {
            for entry in queue.values where entry.push.pushToken == old {
                _ = queuePush(token: new, passTypeIdentifier: entry.push.passTypeIdentifier, now: now)
            }
            return
        }
        for (id, entry) in queue where entry.push.pushToken == old {
            let type = entry.push.passTypeIdentifier
            if queue.values.contains(where: { $0.push.pushToken == new && $0.push.passTypeIdentifier == type }) {
                queue[id] = nil
                continue
            }
            queue[id]?.push.pushToken = new
            queue[id]?.push.generation += 1
            queue[id]?.claimedUntil = nil
            queue[id]?.notBefore = min(entry.notBefore, now)
        }
        let prefix = old + "\u{0}"
        for (campaign, owed) in campaignPushes {
            for (key, state) in owed where state != .sent && key.hasPrefix(prefix) {
                let moved = new + "\u{0}" + key.dropFirst(prefix.count)
                if owed[moved] == nil { campaignPushes[campaign]?[moved] = state }
                campaignPushes[campaign]?[key] = nil
            }
        }
    }
}
