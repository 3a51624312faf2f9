package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// maxSecretFile bounds what is read from a password or key file: a secret
// is one short line, and a wrong path to a huge file should fail fast.
const maxSecretFile = 64 << 10

// openTTY opens the controlling terminal, which prompts use even when
// stdin is a pipe (keys import reads the private key from stdin).
func openTTY() (*os.File, error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if !term.IsTerminal(int(f.Fd())) {
		f.Close()
		return nil, errors.New("/dev/tty is not a terminal")
	}
	return f, nil
}

// passphrase reads a key's passphrase: the first line of --password-file
// if given, else from the terminal without echo, twice when confirm is set
// (creating a key, where a typo would lock the key away for good).
func (a *app) passphrase(file, keyName string, confirm bool) (string, error) {
	if file != "" {
		return readPasswordFile(file)
	}
	tty, err := a.openTTY()
	if err != nil {
		return "", fmt.Errorf("no terminal to ask for the passphrase of key %s (%v): use --password-file FILE", keyName, err)
	}
	defer tty.Close()
	p, err := promptHidden(tty, fmt.Sprintf("Passphrase for key %s: ", keyName))
	if err != nil {
		return "", err
	}
	if confirm {
		again, err := promptHidden(tty, "Repeat the passphrase: ")
		if err != nil {
			return "", err
		}
		if again != p {
			return "", errors.New("the two passphrases differ; nothing was written")
		}
	}
	return p, nil
}

func promptHidden(tty *os.File, prompt string) (string, error) {
	fmt.Fprint(tty, prompt)
	b, err := term.ReadPassword(int(tty.Fd()))
	fmt.Fprintln(tty)
	if err != nil {
		return "", fmt.Errorf("read from terminal: %w", err)
	}
	return string(b), nil
}

// readPasswordFile returns the file's first line without its line ending;
// spaces are kept, since they may be part of the passphrase.
func readPasswordFile(path string) (string, error) {
	data, err := readSecretFile(path, "password file")
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(data, "\n")
	line = strings.TrimSuffix(line, "\r")
	if line == "" {
		return "", fmt.Errorf("password file %s: the first line is empty", path)
	}
	return line, nil
}

func readSecretFile(path, what string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", what, path, err)
	}
	if len(data) > maxSecretFile {
		return "", fmt.Errorf("%s %s: larger than %d bytes; want one line", what, path, maxSecretFile)
	}
	return string(data), nil
}

// readPrivateKeyInput returns the private key text for keys import: from
// --private-key-file, else typed without echo when stdin is a terminal,
// else the first line of stdin.
func (a *app) readPrivateKeyInput(file string) (string, error) {
	if file != "" {
		return readSecretFile(file, "private key file")
	}
	if f, ok := a.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(a.stderr, "Private key (64 hex digits): ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(a.stderr)
		if err != nil {
			return "", fmt.Errorf("read private key from the terminal: %w", err)
		}
		return string(b), nil
	}
	line, err := bufio.NewReader(io.LimitReader(a.stdin, maxSecretFile)).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("read private key from stdin: %w", err)
	}
	if strings.TrimSpace(line) == "" {
		return "", errors.New("no private key on stdin: pipe it in (64 hex digits) or use --private-key-file FILE")
	}
	return line, nil
}
