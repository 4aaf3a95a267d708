#!/usr/bin/env node
// Express application entry point.
'use strict';

const express = require('express');
const { join, resolve: res } = require('path');
const db = require('./db');
const PORT = process.env.PORT || 3000;

class Server extends EventEmitter {
  constructor(opts) {
    super();
    this.app = express();
    this.pool = new db.Pool(opts);
  }

  start() {
    this.app.listen(PORT);
    this.pool.connect();
    this.emit('started');
    return join(__dirname, 'public');
  }

  static create() {
    return new Server({});
  }
}

function main() {
  const server = Server.create();
  server.start();
  res('.');
  import('./lazy.mjs').then((m) => m.run());
}

const handler = async (req, resp) => {
  resp.send(await db.query('select 1'));
};

module.exports = { main, handler };
exports.helper = function () {
  return main();
};
