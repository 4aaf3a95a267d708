/** User service for the API layer. */
import { Injectable, Inject } from "@nestjs/common";
import * as path from "path";
import Repo, { Query as Q } from "./repo";
import type { Config } from "../config";
export { helper } from "./helpers";
export * from "./types";
import fs = require("fs");

export const MAX_USERS = 100;
let counter = 0;

export interface Store<T> extends Base, Events.Emitter {
  get(id: string): Promise<T>;
  size: number;
  config: Config;
}

export type UserId = string | Brand<"user">;

export enum Role {
  Admin,
  User,
}

namespace Internal {
  export function secret(): void {
    hidden();
  }
}

@Injectable()
export class UserService extends BaseService<User> implements Store<User>, Disposable {
  private cache: Cache = new Cache();
  #secret = 1;
  static instances = 0;

  constructor(private readonly repo: Repo, @Inject("cfg") cfg: Config) {
    super(cfg);
    this.logger = new Logger("users");
  }

  async get(id: string): Promise<User> {
    const q = new Q(id);
    q.limit(1);
    this.cache.lookup(id);
    this.repo.find(q);
    this.logger.info("get");
    this.validate(id);
    path.join("a", "b");
    fs.readFileSync("x");
    return super.get(id);
  }

  protected validate = (id: string): boolean => {
    return check(id);
  };

  abstract close(): void;
}

export default function createService(cfg: Config): UserService {
  const svc: UserService = new UserService(new Repo(), cfg);
  svc.get("1");
  return svc;
}
