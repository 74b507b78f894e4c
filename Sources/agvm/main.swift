import AGVMCommandLine

// The whole tool lives in AGVMCommandLine so tests can drive it.
CommandLineTool.main()
