// Live heads: the home page subscribes to newHeads over the node's
// WebSocket (docs/rpc.md "WebSocket and subscriptions") and adds each new
// block to the table. Everything else is rendered by the server.
(function () {
  "use strict";
  var table = document.querySelector("#blocks tbody");
  var status = document.getElementById("live-status");
  var head = document.getElementById("head-height");
  if (!table || !window.WebSocket) {
    return;
  }
  var proto = location.protocol === "https:" ? "wss://" : "ws://";
  var ws = new WebSocket(proto + location.host + "/");
  function hex(q) { return parseInt(q, 16); }
  function cell(tr, text, href) {
    var td = document.createElement("td");
    if (href) {
      var a = document.createElement("a");
      a.href = href;
      a.textContent = text;
      a.className = "block-link";
      td.appendChild(a);
    } else {
      td.textContent = text;
    }
    tr.appendChild(td);
  }
  ws.onopen = function () {
    ws.send(JSON.stringify({jsonrpc: "2.0", id: 1, method: "cowboy_subscribe", params: ["newHeads"]}));
  };
  ws.onmessage = function (ev) {
    var msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.id === 1 && msg.result) {
      status.textContent = "live";
      return;
    }
    if (msg.method !== "cowboy_subscription" || !msg.params || !msg.params.result) {
      return;
    }
    var b = msg.params.result;
    var h = hex(b.height);
    if (document.getElementById("block-" + h)) {
      return;
    }
    var tr = document.createElement("tr");
    tr.id = "block-" + h;
    tr.className = "new";
    cell(tr, String(h), "/block/" + h);
    cell(tr, b.hash.slice(0, 6) + "…" + b.hash.slice(-4));
    cell(tr, String(hex(b.time)));
    cell(tr, String(b.transactions.length));
    cell(tr, String(hex(b.cyclesUsed)));
    cell(tr, String(hex(b.basefeeCycle)));
    cell(tr, String(hex(b.basefeeCell)));
    table.insertBefore(tr, table.firstChild);
    while (table.rows.length > 15) {
      table.deleteRow(table.rows.length - 1);
    }
    head.textContent = String(h);
  };
  ws.onclose = function () { status.textContent = "live updates stopped (the node closed the connection)"; };
}());
