package modules

// The whitelisted modules written in Python (py/<name>.py). They run in the
// PVM like user code, so every step they take is metered.
var pythonModules = []string{"collections", "functools", "itertools", "enum", "dataclasses", "typing", "abc", "operator", "asyncio", "__future__", "string", "heapq", "bisect", "copy", "collections.abc"}

func init() {
	for _, name := range pythonModules {
		registerPython(name)
	}
}
