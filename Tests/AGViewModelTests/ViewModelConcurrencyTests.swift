import Dispatch
import Foundation
import Testing
import AGViewModel

/// Run also under the thread sanitizer:
/// `swift test --sanitize=thread --filter ViewModelConcurrencyTests`.
@Suite("ViewModel concurrency")
struct ViewModelConcurrencyTests {
    @Test @MainActor func packagedInBackgroundHandedToMainActor() async throws {
        let json: JSONObject = ["title": "Background", "price": 4.5, "author": ["name": "Ann"]]
        let vm = await Task.detached {
            let vm = ViewModel(json)
            vm[.bookAuthor] = ViewModel(json["author"]?.objectValue ?? [:])
            vm.setCommand(for: .bookPriceText, dependsOn: [.bookPrice]) { vm in "€\(vm[.bookPrice] ?? 0)" }
            _ = try? vm.executeCommandIfNeeded(for: .bookPriceText)
            return vm
        }.value
        // Now on the main actor: read, bind, refresh.
        #expect(vm[.bookTitle] == "Background")
        #expect(vm.string(at: "author.name") == "Ann")
        #expect(vm[.bookPriceText] == "€4.5")
        let cell = FakeCell()
        vm.bind(cell)
        #expect(cell.applied == ["Background"])

        // And back: a main-actor-made ViewModel changed on another thread.
        await Task.detached { vm[.bookTitle] = "Changed" }.value
        vm.refresh()
        #expect(cell.applied.last == "Changed")
    }

    @Test func concurrentReadsAndWritesKeepInvariants() {
        let vm = ViewModel(["shared": 0])
        let threads = 8, rounds = 400
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for r in 0..<rounds {
                let own = "t\(t)-\(r % 10)"
                vm[own] = .int(Int64(r))
                // A thread always reads back what it last wrote to its keys.
                if vm.int(at: JSONPath(key: own)) != r { Issue.record("lost write on \(own)") }
                vm["shared"] = .int(Int64(t))
                let shared = vm[.bookPages] ?? -1
                _ = shared
                if let value = vm.int(at: "shared"), !(0..<threads).contains(value) {
                    Issue.record("corrupt shared value \(value)")
                }
                if r % 50 == 0 {
                    let copy = vm.copy()
                    if copy.keys.count != Set(copy.keys).count { Issue.record("duplicate keys in copy") }
                    _ = vm.debugDescription
                    vm.merge(["merged-\(t)": .int(Int64(r))])
                }
                if r % 7 == 0 { vm.removeValue(forKey: "t\(t)-\((r + 5) % 10)") }
                vm.setWeakObject(vm, forKey: "self-\(t)")
                _ = vm.weakObject(forKey: "self-\((t + 1) % threads)")
                vm.indexPath = IndexPath(indexes: [t, r])
            }
        }
        // Final state: no key lost or duplicated.
        let keys = vm.keys
        #expect(keys.count == Set(keys).count)
        #expect(keys.count == vm.count)
        for t in 0..<threads {
            #expect(vm.int(at: JSONPath(key: "merged-\(t)")) == 350)
            for k in 0..<10 {
                // Written last at round 390 + k; removed only when r % 7 == 0
                // for key (r + 5) % 10, so check what the last action was.
                let key = "t\(t)-\(k)"
                let lastWrite = 390 + k
                let lastRemoval = (0..<rounds).last { $0 % 7 == 0 && ($0 + 5) % 10 == k }!
                if lastRemoval > lastWrite {
                    #expect(vm[key] == nil)
                } else {
                    #expect(vm.int(at: JSONPath(key: key)) == lastWrite)
                }
            }
        }
        #expect((0..<threads).contains(vm.int(at: "shared") ?? -1))
    }

    @Test func dependentCommandsUnderConcurrentChanges() throws {
        let vm = ViewModel(["price": 0, "currency": "EUR"])
        vm.setCommand(for: .bookPriceText, dependsOn: [.bookPrice, .bookCurrency]) { vm in
            "\(vm.int(at: "price", default: -1)) \(vm[.bookCurrency] ?? "")"
        }
        let writers = 4, rounds = 300
        DispatchQueue.concurrentPerform(iterations: writers * 2) { t in
            for r in 0..<rounds {
                if t < writers {
                    vm[.bookPrice] = Double(t * rounds + r)
                } else {
                    // Readers: any result is a well-formed formatted price.
                    let text = (try? vm.executeCommandIfNeeded(for: .bookPriceText)) ?? nil
                    if let text, !text.hasSuffix(" EUR") { Issue.record("malformed \(text)") }
                }
            }
        }
        // No lost mark: after the writers stop, the derived value matches.
        let final = vm.int(at: "price", default: -1)
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "\(final) EUR")
        #expect(!vm.needsExecuteCommand(forKey: "priceText"))
    }

    @Test func concurrentCommandChangesAndChains() {
        let vm = ViewModel()
        let first = Command { _ in 1 }
        let second = Command { _ in 2 }
        DispatchQueue.concurrentPerform(iterations: 6) { t in
            for r in 0..<200 {
                let key = "c\(r % 5)"
                switch t % 3 {
                case 0: vm.setCommand(Command(dependsOn: ["x"]) { _ in r }, forKey: key)
                case 1: vm.removeCommand(forKey: key); vm["x"] = .int(Int64(r))
                default:
                    _ = try? vm.executeCommandIfNeeded(forKey: key)
                    first.isExecutable = r % 2 == 0
                    first.then(second)
                    _ = first.chain
                }
            }
        }
        #expect(vm.commandKeys.allSatisfy { $0.hasPrefix("c") })
        #expect(first.next === second)
    }
}
