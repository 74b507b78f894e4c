import Testing
import AGViewModel

/// Deep merges of ViewModel graphs with sharing and cycles, against a
/// model: merging a copy of `other` taken first and storing its ViewModels
/// as they are.
@Suite("ViewModel deep merge of graphs")
struct ViewModelDeepMergeGraphTests {
    @Test func aViewModelHeldTwiceIsStoredAsOneCopy() {
        let shared = ViewModel(["title": "T"])
        let other = ViewModel().set("header", payload: shared).set("footer", payload: shared)
            .set("list", payload: [shared])
        let target = ViewModel().deepMerge(other)
        let header = target.payload(forKey: "header", as: ViewModel.self)
        #expect(header !== shared)
        #expect(header === target.payload(forKey: "footer", as: ViewModel.self))
        #expect(header === target.payload(forKey: "list", as: [ViewModel].self)?.first)
        header?["title"] = "U"
        #expect(shared["title"] == "T")
    }

    @Test func sectionsAndManagersAreCopiedWithTheViewModelsTheyShare() {
        let shared = ViewModel(["t": 1])
        let section = Section(items: [shared])
        let manager = Manager(sections: [section])
        let other = ViewModel().set("item", payload: shared).set("section", payload: section).set("table", payload: manager)
        let target = ViewModel().deepMerge(other)
        let item = target.payload(forKey: "item", as: ViewModel.self)
        let storedSection = target.payload(forKey: "section", as: Section.self)
        #expect(storedSection !== section && item !== shared)
        #expect(storedSection?.items.first === item)
        #expect(target.payload(forKey: "table", as: Manager.self)?.sections.first === storedSection)
        storedSection?.append(ViewModel())
        item?["t"] = 2
        #expect(section.count == 1 && shared["t"] == 1)
    }

    /// The section or manager a ViewModel holds stays when `other` holds
    /// it too, whether the merge reads `other` or a copy of it (merging a
    /// ViewModel that holds this one).
    @Test func theSectionAlreadyStoredStays() {
        for readsACopy in [false, true] {
            let section = Section(items: [ViewModel(["t": 1])]), manager = Manager()
            let target = ViewModel().set("section", payload: section).set("table", payload: manager)
            let other = ViewModel().set("section", payload: section).set("table", payload: manager)
            if readsACopy {
                other.set("child", payload: target)
                target.set("child", payload: other)
            }
            var changes: [String] = []
            let observation = target.observe(["section", "table"]) { _, key, _ in changes.append(key) }
            target.deepMerge(other)
            #expect(target.payload(forKey: "section", as: Section.self) === section, "reads a copy: \(readsACopy)")
            #expect(target.payload(forKey: "table", as: Manager.self) === manager, "reads a copy: \(readsACopy)")
            #expect(changes.isEmpty, "reads a copy: \(readsACopy)")
            withExtendedLifetime(observation) {}
        }
    }

    @Test func twoCyclicGraphsMergeAndEnd() {
        // Copying each ViewModel of `other` where it is stored, the merge
        // would walk into its copies again through the target's cycle,
        // with other ViewModels of `other`, and make new copies, without
        // end.
        let target = ViewModel(["c": 1]), inner = ViewModel(["c": 1])
        target.set("b", payload: inner)
        inner.set("a", payload: target)["b"] = 1
        let other = ViewModel(), first = ViewModel(), second = ViewModel()
        other.set("a", payload: first).set("b", payload: second).set("c", payload: first)
        first.set("b", payload: other).set("c", payload: other)
        second.set("c", payload: second).set("a", payload: second).set("b", payload: first)
        target.deepMerge(other)
        #expect(target.payload(forKey: "b", as: ViewModel.self) === inner)
        let originals = [other, first, second]
        for key in ["a", "c"] {
            let stored = target.payload(forKey: key, as: ViewModel.self)
            #expect(stored != nil && !originals.contains { $0 === stored })
        }
        #expect(inner.payload(forKey: "a", as: ViewModel.self) === target)
        #expect(other.keys == ["a", "b", "c"] && first.keys == ["b", "c"])
    }

    @Test func aViewModelMadeWhereAFreedOneWasIsStillMergedInto() {
        // The second visit of `shared` frees the ViewModel under "a"; the
        // one made from the object under "b" may take its address.
        let shared = ViewModel(["b": ["k": 1]]).set("a", payload: ViewModel())
        let target = ViewModel().set("p", payload: shared).set("q", payload: shared)
        let incoming = ViewModel(["v": 1])
        let other = ViewModel()
            .set("p", payload: ViewModel().set("a", payload: incoming))
            .set("q", payload: ViewModel(["a": 5]).set("b", payload: incoming))
        target.deepMerge(other)
        #expect(shared["a"] == 5)
        #expect(shared.int(at: "b.k") == 1)
        #expect(shared.int(at: "b.v") == 1)
    }

    @Test(arguments: 0..<4)
    func randomGraphsMergeAsACopyTakenFirst(batch: Int) {
        var generator = SplitMix64(seed: 0x6D65_7267_6500 + UInt64(batch))
        for _ in 0..<1_500 {
            let target = RandomGraph(nodes: Int.random(in: 1...4, using: &generator), using: &generator)
            let other = RandomGraph(nodes: Int.random(in: 1...4, using: &generator), using: &generator)
            let expected = RandomGraph(copying: target)
            let (source, copies) = (RandomGraph(copying: other), RandomGraph(copying: other))
            var merged: [(ViewModel, ViewModel)] = []
            modelMerge(
                source.nodes[0], into: expected.nodes[0],
                copies: Dictionary(uniqueKeysWithValues: zip(source.nodes.map(ObjectIdentifier.init), copies.nodes)),
                merged: &merged)

            let otherBefore = other.shape(naming: other.nodes, avoiding: [])
            let targetBefore = target.shape(naming: target.nodes, avoiding: [])
            target.nodes[0].deepMerge(other.nodes[0])
            let actual = target.shape(naming: target.nodes, avoiding: other.nodes)
            let model = expected.shape(naming: expected.nodes, avoiding: [])
            #expect(actual == model, "merging\n\(otherBefore)into\n\(targetBefore)")
            #expect(other.shape(naming: other.nodes, avoiding: []) == otherBefore)
            if actual != model { return }
        }
    }
}

/// The model of ``ViewModel/deepMerge(_:)-(ViewModel)``: it reads
/// `other` as it was and stores `copies`, a copy of `other` taken first, in
/// place of its ViewModels.
private func modelMerge(
    _ other: ViewModel, into target: ViewModel, copies: [ObjectIdentifier: ViewModel], merged: inout [(ViewModel, ViewModel)]
) {
    guard other !== target, !merged.contains(where: { $0.0 === target && $0.1 === other }) else { return }
    merged.append((target, other))
    let copy = { (original: ViewModel) in copies[ObjectIdentifier(original)]! }
    for key in other.keys {
        switch other[value: key] {
        case .json(let value)?:
            target.deepMerge([key: value])
        case .payload(let incoming as ViewModel)?:
            switch target[value: key] {
            case .payload(let stored as ViewModel)? where stored !== target:
                if stored !== copy(incoming) { modelMerge(incoming, into: stored, copies: copies, merged: &merged) }
            case .json(.object(let members))?:
                let nested = ViewModel(members)
                modelMerge(incoming, into: nested, copies: copies, merged: &merged)
                target.set(key, payload: nested)
            default:
                target.set(key, payload: copy(incoming))
            }
        case .payload(let list as [ViewModel])?:
            target.set(key, payload: list.map(copy))
        case .payload(let payload)?:
            target.set(key, payload: payload)
        case nil:
            break
        }
    }
}

/// A few ViewModels holding numbers, JSON objects, one another (cycles
/// included) and lists of one another, under a few shared key names.
private struct RandomGraph {
    var nodes: [ViewModel]

    init(nodes count: Int, using generator: inout SplitMix64) {
        nodes = (0..<count).map { _ in ViewModel() }
        for node in nodes {
            for key in ["a", "b", "c", "d"].shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator)) {
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: node[key] = JSONValue.int(Int64.random(in: 0..<3, using: &generator))
                case 1: node[key] = JSONValue.object(["x": .int(Int64.random(in: 0..<3, using: &generator)), "y": ["z": 1]])
                case 2, 3: node.set(key, payload: nodes.randomElement(using: &generator)!)
                default: node.set(key, payload: (0..<Int.random(in: 1...2, using: &generator)).map { _ in nodes.randomElement(using: &generator)! })
                }
            }
        }
    }

    /// A copy of `graph`, node for node.
    init(copying graph: RandomGraph) {
        let root = graph.nodes[0].copy()
        // The copy keeps the shape; find each node's copy by walking both.
        var copies: [ObjectIdentifier: ViewModel] = [:]
        var pending = [(graph.nodes[0], root)]
        while let (original, copy) = pending.popLast() {
            guard copies.updateValue(copy, forKey: ObjectIdentifier(original)) == nil else { continue }
            for key in original.keys {
                if let nested = original.payload(forKey: key, as: ViewModel.self) {
                    pending.append((nested, copy.payload(forKey: key, as: ViewModel.self)!))
                } else if let list = original.payload(forKey: key, as: [ViewModel].self) {
                    pending.append(contentsOf: zip(list, copy.payload(forKey: key, as: [ViewModel].self)!))
                }
            }
        }
        // Nodes the root does not reach are copied on their own.
        nodes = graph.nodes.map { copies[ObjectIdentifier($0)] ?? $0.copy() }
    }

    /// The graph reachable from the first node, written out: `named` nodes
    /// by their index, others by the order they are reached in, and a node
    /// of `avoiding` as a mistake.
    func shape(naming named: [ViewModel], avoiding: [ViewModel]) -> String {
        var names: [ObjectIdentifier: String] = [:]
        for (index, node) in named.enumerated() { names[ObjectIdentifier(node)] = "n\(index)" }
        for node in avoiding { names[ObjectIdentifier(node)] = "OTHER" }
        var written: Set<ObjectIdentifier> = [], text = "", pending = [nodes[0]], fresh = 0
        func name(_ node: ViewModel) -> String {
            if let known = names[ObjectIdentifier(node)] { return known }
            fresh += 1
            names[ObjectIdentifier(node)] = "new\(fresh)"
            return "new\(fresh)"
        }
        while !pending.isEmpty {
            let node = pending.removeLast()
            guard written.insert(ObjectIdentifier(node)).inserted else { continue }
            text += name(node) + " {"
            for key in node.keys {
                if let nested = node.payload(forKey: key, as: ViewModel.self) {
                    text += " \(key): \(name(nested))"
                    pending.insert(nested, at: 0)
                } else if let list = node.payload(forKey: key, as: [ViewModel].self) {
                    text += " \(key): [\(list.map(name).joined(separator: ", "))]"
                    pending.insert(contentsOf: list.reversed(), at: 0)
                } else {
                    text += " \(key): \(node[key]?.description ?? "?")"
                }
            }
            text += " }\n"
        }
        return text
    }
}

extension ViewModelDeepMergeGraphTests {
    /// Merging a ViewModel that holds the target reads a copy of it taken
    /// first. Values the merge replaces are freed, and the next ViewModel
    /// the merge makes often takes a freed one's address: it must not pass
    /// for the freed one and be skipped as merged already.
    @Test func aViewModelAtAFreedOnesAddressIsNotTakenForIt() {
        var lost = 0
        for _ in 0 ..< 50 {
            let target = ViewModel(), shared = ViewModel()
            target.set("k", payload: ViewModel(["o": 1])).set("s", payload: shared).set("t", payload: shared)
            let incoming = ViewModel().set("k", payload: ViewModel(["r": 1]))
            let other = ViewModel(["k": 1]).set("s", payload: incoming).set("t", payload: target)
            target.deepMerge(other)
            if shared.payload(forKey: "k", as: ViewModel.self)?["o"] == nil { lost += 1 }
        }
        #expect(lost == 0)
    }

    /// A nested ViewModel held under two keys is merged once, and the
    /// commands on both keys run: each key's value changed inside.
    @Test func aViewModelHeldUnderTwoKeysMarksTheCommandsOfBoth() {
        for byViewModel in [false, true] {
            let shared = ViewModel(["name": "Ann"])
            let vm = ViewModel().set("a", payload: shared).set("b", payload: shared)
            vm.setCommand(forKey: "labelA", dependsOn: ["a"], execution: .automatic) { vm in vm.string(at: "a.name") }
            vm.setCommand(forKey: "labelB", dependsOn: ["b"], execution: .automatic) { vm in vm.string(at: "b.name") }
            if byViewModel {
                let incoming = ViewModel(["name": "Bo"])
                vm.deepMerge(ViewModel().set("a", payload: incoming).set("b", payload: incoming))
            } else {
                vm.deepMerge(["a": ["name": "Bo"], "b": ["name": "Bo"]])
            }
            #expect(vm["labelA"] == "Bo" && vm["labelB"] == "Bo", "by a ViewModel: \(byViewModel)")
        }
    }

    /// Lists of sections merged in are copied, as `copy()` copies them:
    /// changing the result never changes `other`.
    @Test func aListOfSectionsMergedInIsCopied() throws {
        let section = Section(items: [ViewModel(["id": 1])])
        let other = ViewModel()
        other[value: "groups"] = [section].viewModelValue
        let vm = ViewModel()
        vm.deepMerge(other)
        let merged = try #require(vm.payload(forKey: "groups", as: [Section].self))
        #expect(merged.count == 1 && merged[0] !== section && merged[0][0] !== section[0])
    }
}
