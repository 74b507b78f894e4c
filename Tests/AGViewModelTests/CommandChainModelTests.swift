import Testing
@testable import AGViewModel

/// Random acyclic graphs of keyed chains, automatic or on demand, with
/// executability toggled, chains relinked (not re-set) and re-set, checked
/// against a plain model: full walks (no early stop), rounds that run
/// every reached, marked, executable automatic command.
@Suite("Chains and automatic commands against a model")
struct CommandChainModelTests {
    final class Step {
        let deps: [String]
        let offset: Int64
        var command: Command!
        init(deps: [String], offset: Int64) { self.deps = deps; self.offset = offset }
    }

    static let inputs = ["i0", "i1", "i2"]
    static let keys = (0 ..< 6).map { "c\($0)" }

    struct Model {
        var steps: [ObjectIdentifier: Step] = [:]
        var heads: [String: Command] = [:]
        var automatic: [String: Bool] = [:]
        var registered: [String: [String]] = [:]
        var hasCommand: [String: Bool] = [:]
        var marked: Set<String> = []
        var values: [String: Int64] = [:]
        var inRound = false
        var queue: [String] = []

        func dependents(of key: String) -> [String] {
            CommandChainModelTests.keys.filter { hasCommand[$0]! && $0 != key && registered[$0]!.contains(key) }
        }

        mutating func mark(_ keys: [String]) {
            var pending = keys
            var seen: Set<String> = []
            var auto: [String] = []
            while let next = pending.popLast() {
                guard seen.insert(next).inserted else { continue }
                if hasCommand[next] == true {
                    marked.insert(next)
                    if automatic[next]! { auto.append(next) }
                }
                pending += dependents(of: next)
            }
            guard !auto.isEmpty else { return }
            if inRound { queue += auto; return }
            inRound = true
            queue = auto
            var index = 0
            while index < queue.count {
                let key = queue[index]
                index += 1
                guard hasCommand[key] == true, marked.contains(key), heads[key]!.isExecutable else { continue }
                _ = execute(key, force: false)
            }
            inRound = false
            queue = []
        }

        mutating func set(_ key: String, to value: Int64?) {
            guard values[key] != value else { return }
            values[key] = value
            mark(dependents(of: key))
        }

        mutating func execute(_ key: String, force: Bool) -> Int64? {
            var visiting: Set<String> = []
            return execute(key, force: force, visiting: &visiting)
        }

        private mutating func execute(_ key: String, force: Bool, visiting: inout Set<String>) -> Int64? {
            guard hasCommand[key]! else { return nil }
            guard force || marked.contains(key) else { return values[key] }
            let head = heads[key]!
            guard head.isExecutable else { return nil }
            visiting.insert(key)
            for dependency in registered[key]! where dependency != key && !visiting.contains(dependency) {
                guard hasCommand[dependency] == true else { continue }
                _ = execute(dependency, force: false, visiting: &visiting)
            }
            visiting.remove(key)
            guard force || marked.contains(key) else { return values[key] }
            guard head.isExecutable else { return nil }
            let staleInput = registered[key]!.contains { dependency in
                dependency != key && !visiting.contains(dependency) && hasCommand[dependency] == true
                    && marked.contains(dependency) && heads[dependency]!.isExecutable
            }
            if staleInput { marked.insert(key) } else { marked.remove(key) }
            var result = values[key]
            for command in head.chain where command === head || command.isExecutable {
                let step = steps[ObjectIdentifier(command)]!
                result = step.deps.reduce(step.offset) { $0 + (values[$1] ?? 0) } % 1000
                set(key, to: result)
            }
            return result
        }
    }

    static func makeStep(_ deps: [String], _ offset: Int64, _ model: inout Model, automatic: Bool = false) -> Step {
        let step = Step(deps: deps, offset: offset)
        step.command = Command(dependsOn: deps, execution: automatic ? .automatic : .onDemand) { vm -> Int64? in
            deps.reduce(offset) { $0 + Int64(vm.int(at: $1) ?? 0) } % 1000
        }
        model.steps[ObjectIdentifier(step.command)] = step
        return step
    }

    static func randomDeps(upTo index: Int, _ random: inout SplitMix64) -> [String] {
        let candidates = inputs + keys.prefix(index + 1)
        var chosen = candidates.filter { _ in Int.random(in: 0 ..< 3, using: &random) == 0 }
        if chosen.isEmpty { chosen = [inputs.randomElement(using: &random)!] }
        if Int.random(in: 0 ..< 8, using: &random) == 0, let dup = chosen.first { chosen.append(dup) }
        return chosen
    }

    @Test(arguments: 0 ..< 300)
    func randomAutomaticChainsAgreeWithTheModel(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var model = Model()
        var vm = ViewModel()
        for input in Self.inputs { vm[input] = .int(0); model.values[input] = 0 }
        // Heads: deps from inputs and earlier keys (its own key excluded for the head).
        for (index, key) in Self.keys.enumerated() {
            let auto = Bool.random(using: &random)
            model.automatic[key] = auto
            model.hasCommand[key] = false
            let deps = Self.randomDeps(upTo: index - 1, &random).filter { $0 != key }
            let head = Self.makeStep(deps.isEmpty ? ["i0"] : deps, Int64(index), &model, automatic: auto)
            model.heads[key] = head.command
        }
        // Chains: extra steps, sometimes another key's head (earlier), sometimes a loop.
        for (index, key) in Self.keys.enumerated() {
            var last = model.heads[key]!
            for _ in 0 ..< Int.random(in: 0 ..< 3, using: &random) {
                let step = Self.makeStep(Self.randomDeps(upTo: index, &random), Int64(10 * index), &model)
                last.then(step.command)
                last = step.command
            }
            if index > 0, Int.random(in: 0 ..< 4, using: &random) == 0 {
                let other = model.heads[Self.keys[Int.random(in: 0 ..< index, using: &random)]]!
                if other.previous == nil, last.next == nil { last.then(other) }
            } else if Int.random(in: 0 ..< 6, using: &random) == 0, last !== model.heads[key]!, model.heads[key]!.previous == nil {
                last.then(model.heads[key]!)
            }
        }
        func setCommand(_ key: String) {
            let head = model.heads[key]!
            model.registered[key] = head.chain.flatMap(\.dependencies)
            model.hasCommand[key] = true
            vm.setCommand(head, forKey: key)
            model.mark([key])
        }
        for key in Self.keys.reversed() { setCommand(key) }
        var failures: [String] = []
        func check(_ step: Int, _ what: String) {
            for key in Self.keys {
                let needs = vm.needsExecuteCommand(forKey: key), expectedNeeds = model.hasCommand[key]! && model.marked.contains(key)
                let value = vm.int(at: key).map(Int64.init), expectedValue = model.values[key]
                if needs != expectedNeeds || value != expectedValue {
                    failures.append("seed \(seed) step \(step) after \(what): \(key) needs \(needs) (model \(expectedNeeds)) value \(value.map(String.init) ?? "nil") (model \(expectedValue.map(String.init) ?? "nil"))")
                }
            }
        }
        check(-1, "setup")
        for step in 0 ..< 200 where failures.isEmpty {
            let index = Int.random(in: 0 ..< Self.keys.count, using: &random)
            let key = Self.keys[index]
            let what: String
            switch Int.random(in: 0 ..< 100, using: &random) {
            case ..<35:
                let input = Self.inputs.randomElement(using: &random)!
                let value = Int64.random(in: 0 ..< 4, using: &random)
                what = "\(input) = \(value)"
                vm[input] = .int(value)
                model.set(input, to: value)
            case ..<50:
                what = "executeIfNeeded \(key)"
                let result = try? vm.executeCommandIfNeeded(forKey: key)
                let expected = model.execute(key, force: false)
                if result?.json?.intValue.map(Int64.init) != expected { failures.append("seed \(seed) step \(step): \(what) returned \(String(describing: result)) model \(String(describing: expected))") }
            case ..<55:
                what = "execute \(key)"
                let result = try? vm.executeCommand(forKey: key)
                let expected = model.execute(key, force: true)
                if result?.json?.intValue.map(Int64.init) != expected { failures.append("seed \(seed) step \(step): \(what) returned \(String(describing: result)) model \(String(describing: expected))") }
            case ..<62:
                what = "setNeeds \(key)"
                vm.setNeedsExecuteCommand(forKey: key)
                model.mark([key])
            case ..<80:
                // Toggle a step (head or not) of the key's chain.
                let chain = model.heads[key]!.chain
                let command = chain.randomElement(using: &random)!
                command.isExecutable.toggle()
                what = "toggle step \(chain.firstIndex { $0 === command }!) of \(key) -> \(command.isExecutable)"
            case ..<86:
                what = "set \(key)"
                setCommand(key)
            case ..<89:
                what = "remove \(key)"
                vm.removeCommand(forKey: key)
                model.hasCommand[key] = false
            case ..<94:
                // Relink without setting again: append a fresh step to the chain's end.
                let chain = model.heads[key]!.chain
                let last = chain.last!
                if last.next == nil {
                    // Unregistered reads of other commands depend on the round's order: inputs only.
                    let fresh = Self.makeStep(Self.randomDeps(upTo: -1, &random), 500, &model)
                    last.then(fresh.command)
                    what = "relink \(key) + \(fresh.deps)"
                } else { what = "nothing" }
            default:
                what = "copy"
                vm = vm.copy()
            }
            check(step, what)
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }
}

/// Random graphs with cycles (automatic ones too), bodies that write
/// inputs (their own too), toggles, sets and removals (from bodies too),
/// copies: after every operation, outside a round, the flags are closed
/// downstream (I1), and no command upstream of a marked automatic one
/// has the flag (I2: a walk from above would stop before reaching it).
@Suite("Command marks stay closed downstream and open above marked automatic commands")
struct CommandMarkInvariantTests {
    static func violations(_ vm: ViewModel) -> [String] {
        var result: [String] = []
        for (key, slot) in vm.commandSlots where slot.markedDownstream {
            if !slot.needsExecute { result.append("I0 \(key) flagged, not marked") }
            for dependent in vm.commandDependents[key] ?? [] where vm.commandSlots[dependent]?.markedDownstream != true {
                result.append("I1 \(key) flagged, dependent \(dependent) not")
            }
        }
        for (key, slot) in vm.commandSlots where slot.needsExecute && slot.command.execution == .automatic {
            var pending = slot.dependencies.filter { $0 != key }
            var seen: Set<String> = [key]
            while let next = pending.popLast() {
                guard seen.insert(next).inserted else { continue }
                guard let up = vm.commandSlots[next] else { continue }
                if up.markedDownstream { result.append("I2 \(key) marked automatic, \(next) above it flagged") }
                pending += up.dependencies
            }
        }
        return result
    }

    @Test(arguments: 0 ..< 300)
    func flagsStayClosedAndOpenAboveMarkedAutomaticCommands(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let inputs = ["i0", "i1", "i2"]
        let keys = (0 ..< 7).map { "c\($0)" }
        var vm = ViewModel()
        for input in inputs { vm[input] = .int(0) }
        var commands: [String: Command] = [:]
        for (index, key) in keys.enumerated() {
            var deps = (inputs + keys.prefix(index)).filter { _ in Int.random(in: 0 ..< 3, using: &random) == 0 }
            if Int.random(in: 0 ..< 4, using: &random) == 0 { deps.append(keys.randomElement(using: &random)!) }
            let auto = Int.random(in: 0 ..< 3, using: &random) != 0
            let writes: String? = Int.random(in: 0 ..< 4, using: &random) == 0 ? (inputs + ["w"]).randomElement(using: &random)! : nil
            let edits = Int.random(in: 0 ..< 12, using: &random) == 0
            let head = Command(dependsOn: deps, execution: auto ? .automatic : .onDemand) { vm -> Int64? in
                let sum = deps.reduce(Int64(index)) { $0 + Int64(vm.int(at: $1) ?? 0) } % 7
                if let writes { vm[writes] = .int(sum % 3) }
                if edits, sum == 3 { vm.removeCommand(forKey: keys[(index + 1) % keys.count]) }
                if edits, sum == 4, let other = commands[keys[(index + 2) % keys.count]] { vm.setCommand(other, forKey: keys[(index + 2) % keys.count]) }
                return sum
            }
            if Int.random(in: 0 ..< 4, using: &random) == 0 {
                let stepDeps = (inputs + keys).filter { _ in Int.random(in: 0 ..< 4, using: &random) == 0 }
                head.then(Command(dependsOn: stepDeps) { vm -> Int64? in
                    stepDeps.reduce(Int64(0)) { $0 + Int64(vm.int(at: $1) ?? 0) } % 5
                })
            }
            commands[key] = head
        }
        for key in keys { vm.setCommand(commands[key]!, forKey: key) }
        var failures: [String] = []
        for step in 0 ..< 150 where failures.isEmpty {
            let key = keys.randomElement(using: &random)!
            let what: String
            switch Int.random(in: 0 ..< 100, using: &random) {
            case ..<40:
                let input = inputs.randomElement(using: &random)!
                let value = Int64.random(in: 0 ..< 4, using: &random)
                what = "\(input) = \(value)"
                vm[input] = .int(value)
            case ..<55:
                what = "executeIfNeeded \(key)"
                _ = try? vm.executeCommandIfNeeded(forKey: key)
            case ..<60:
                what = "execute \(key)"
                _ = try? vm.executeCommand(forKey: key)
            case ..<67:
                what = "setNeeds \(key)"
                vm.setNeedsExecuteCommand(forKey: key)
            case ..<82:
                let chain = commands[key]!.chain
                chain.randomElement(using: &random)!.isExecutable.toggle()
                what = "toggle in \(key)"
            case ..<88:
                what = "set \(key)"
                vm.setCommand(commands[key]!, forKey: key)
            case ..<92:
                what = "remove \(key)"
                vm.removeCommand(forKey: key)
            case ..<96:
                what = "batch"
                let a = inputs.randomElement(using: &random)!, b = inputs.randomElement(using: &random)!
                let va = Int64.random(in: 0 ..< 4, using: &random), vb = Int64.random(in: 0 ..< 4, using: &random)
                vm.performBatchUpdates { vm[a] = .int(va); vm[b] = .int(vb) }
            default:
                what = "copy"
                vm = vm.copy()
            }
            let found = Self.violations(vm)
            if !found.isEmpty { failures.append("seed \(seed) step \(step) after \(what): \(found.prefix(3))") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(2))")
    }
}
