import x from './lib/x.js'
const y = require('./lib/y')
