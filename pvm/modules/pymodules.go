package modules

// The whitelisted modules written in Python (py/<name>.py). They run in the
// PVM like user code, so every step they take is metered.
func init() {
	for _, name := range []string{"collections", "functools", "itertools", "enum", "dataclasses", "typing", "abc", "operator", "asyncio"} {
		registerPython(name)
	}
}
