extension JSONScanner {
    /// The scanner's working buffers between two parses on a thread, held
    /// by the thread's ``JSONKeyInternTable``: a parse takes them when it
    /// starts and gives them back in ``JSONScanner/finish()``.
    struct SpareBuffers {
        var values = JSONSpareBuffer<JSONValue>()
        var keys = JSONSpareBuffer<String>()
        /// Kept only with `keys`, at the same capacity.
        var keyHashes = JSONSpareBuffer<Int>()
        var frames = JSONSpareBuffer<Frame>()
        var scratch = JSONSpareBuffer<UInt8>()
        var stringSlots = JSONSpareBuffer<JSONStringCache.Entry>()

        /// Frees every kept buffer.
        mutating func deallocate() {
            values.deallocate()
            keys.deallocate()
            keyHashes.deallocate()
            frames.deallocate()
            scratch.deallocate()
            stringSlots.deallocate()
        }
    }

    /// Ends the parse, successful or not: whatever the value and key stacks
    /// still hold is released, and the working buffers go back to the
    /// thread for its next parse.
    consuming func finish() {
        var spares = SpareBuffers()
        values.deinitialize(count: valueCount)
        valueCount = 0
        spares.values.keep(values, capacity: valueCapacity)
        valueCapacity = 0
        keys.deinitialize(count: keyCount)
        keyCount = 0
        if spares.keys.keep(keys, capacity: keyCapacity) {
            spares.keyHashes.keep(keyHashes, capacity: keyCapacity)
        } else {
            keyHashes.deallocate()
        }
        keyCapacity = 0
        frames.giveMemory(to: &spares.frames)
        scratch.giveMemory(to: &spares.scratch)
        strings.giveMemory(to: &spares.stringSlots)
        internedKeys.keepSpareBuffers(spares)
    }
}
