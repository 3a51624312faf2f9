# An escrow: the buyer deploys it with the price as --value; the CBY stays
# in the actor until the buyer confirms delivery (paying the seller) or the
# seller refunds the buyer.
from cowboy_sdk import address, context, emit_event, transfer


class Actor:
    def __init__(self, seller):
        if context.value == 0:
            raise ValueError("deploy the escrow with the price as its value")
        self.buyer = context.sender
        self.seller = address(seller)
        self.amount = context.value
        self.state = "funded"

    def confirm(self):
        """The buyer received the goods: pay the seller."""
        if context.sender != self.buyer:
            raise PermissionError("only the buyer can confirm")
        self._settle(self.seller, "released")

    def refund(self):
        """The seller gives up the sale: return the money to the buyer."""
        if context.sender != self.seller:
            raise PermissionError("only the seller can refund")
        self._settle(self.buyer, "refunded")

    def status(self):
        return {"buyer": self.buyer, "seller": self.seller, "amount": self.amount, "state": self.state}

    def _settle(self, to, outcome):
        if self.state != "funded":
            raise RuntimeError(f"escrow already {self.state}")
        self.state = outcome
        transfer(to, self.amount)
        emit_event(outcome.capitalize(), {"to": to, "amount": self.amount})
