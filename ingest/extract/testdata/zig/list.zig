const std = @import("std");
const util = @import("util.zig");

pub const List = struct {
    items: []u32,

    pub fn init(alloc: std.mem.Allocator) List {
        return List{ .items = alloc.alloc(u32, 0) catch unreachable };
    }

    pub fn len(self: List) usize {
        return util.count(self.items);
    }
};

const Color = enum { red, green };

pub fn main() void {
    const l = List.init(std.heap.page_allocator);
    std.debug.print("{}\n", .{l.len()});
}

test "list starts empty" {
    try std.testing.expect(List.init(std.testing.allocator).len() == 0);
}
