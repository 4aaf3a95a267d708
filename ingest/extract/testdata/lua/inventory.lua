-- Inventory module.
local json = require("dkjson")
local util = require "util"

local M = {}

local function clamp(x, lo, hi)
  return math.max(lo, math.min(hi, x))
end

function M.add(item, qty)
  M.items[item] = clamp(qty, 0, 100)
  util.log("added")
end

function M:remove(item)
  self:save()
  return json.encode(item)
end

return M
