package cowboysdk_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPipInstall: `pip install ./sdk/python` installs a package that
// imports and works outside the source tree. It builds from a copy so the
// source tree gets no build/ or egg-info, and installs with --target so the
// system's packages are untouched.
func TestPipInstall(t *testing.T) {
	needPython(t)
	if out, err := exec.Command(python, "-c", "import setuptools, pip").CombinedOutput(); err != nil {
		t.Skipf("%s has no pip or setuptools (apt-get install python3-pip python3-setuptools): %s", python, out)
	}
	src := t.TempDir()
	for _, f := range []string{"pyproject.toml", "README.md", "cowboy"} {
		if out, err := exec.Command("cp", "-r", f, filepath.Join(src, f)).CombinedOutput(); err != nil {
			t.Fatalf("copy %s: %v %s", f, err, out)
		}
	}
	target := t.TempDir()
	cmd := exec.Command(python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index", "--target", target, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_ROOT_USER_ACTION=ignore")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pip install: %v\n%s", err, out)
	}
	run := exec.Command(python, "-c", "import cowboy, cowboy.ws; print(cowboy.__file__); print(cowboy.Key.dev(0).address)")
	run.Dir = t.TempDir()
	run.Env = append(os.Environ(), "PYTHONPATH="+target, "PYTHONDONTWRITEBYTECODE=1")
	out, err := run.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), target) || !strings.Contains(string(out), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266") {
		t.Fatalf("installed package: %v\n%s", err, out)
	}
}
