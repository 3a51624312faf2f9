package rpc

import (
	"encoding/json"
	"fmt"
)

// JSON-RPC 2.0 error codes, and Cowboy's two server errors.
const (
	CodeParseError     = -32700 // the body is not JSON
	CodeInvalidRequest = -32600 // JSON, but not a JSON-RPC 2.0 request
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
	CodeTxRejected     = -32000 // a transaction failed validation; data.reason says which rule
	CodeNotFound       = -32001 // reserved for lookups where a null result would be ambiguous
)

// Error is a JSON-RPC error object. The server answers with it and the
// Client returns it, so callers can switch on Code.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error prints the code with the message, so logs show both.
func (e *Error) Error() string {
	return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message)
}

// RejectData is the data of a CodeTxRejected error.
type RejectData struct {
	Reason string `json:"reason"` // stable code such as "nonce_too_low" or "decode"
}

// RejectReason is data.reason of a CodeTxRejected error, and "" for any
// other error, so a client can tell "nonce too low" from "insufficient funds"
// without parsing sentences.
func (e *Error) RejectReason() string {
	if e.Code != CodeTxRejected {
		return ""
	}
	var d RejectData
	if json.Unmarshal(e.Data, &d) != nil {
		return ""
	}
	return d.Reason
}

func newError(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

func invalidParams(format string, args ...any) *Error {
	return newError(CodeInvalidParams, format, args...)
}

func rejected(reason, message string) *Error {
	data, _ := json.Marshal(RejectData{Reason: reason}) // a struct of one string cannot fail
	return &Error{Code: CodeTxRejected, Message: message, Data: data}
}
