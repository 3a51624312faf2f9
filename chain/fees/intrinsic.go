package fees

// Kind is what a transaction does, which fixes its intrinsic cost (§17.2).
type Kind uint8

// Transaction kinds of §17.2 the chain executes today.
const (
	KindTransfer     Kind = iota // to an account without code
	KindDeploy                   // to = null: create an actor
	KindActorMessage             // to an actor: call a method
)

// Intrinsic returns the cycles and cells a transaction pays before
// execution begins (§17.2): transfers and actor messages 10,000 cycles plus
// one cell per byte of calldata (§17.4); deployment 50,000 cycles and
// "100/byte + code_size" cells, read as 100 plus one cell per byte of the
// deploy payload (the code with its salt and __init__ args, each byte
// once; docs/decisions.md "CIP-3 leftovers and the exact §4.2 basefee").
func Intrinsic(kind Kind, payloadLen int) (cycles, cells uint64) {
	n := uint64(payloadLen)
	switch kind {
	case KindDeploy:
		return DeployCycles, DeployCellsBase + n
	case KindActorMessage:
		return ActorMessageCycles, n * CalldataCellsPerByte
	default:
		return TransferCycles, n * CalldataCellsPerByte
	}
}
