package com.acme.users

import kotlinx.coroutines.launch
import com.acme.db.Database

interface Repo {
    fun find(id: String): User?
}

class UserRepo(private val db: Database) : BaseRepo(), Repo {
    override fun find(id: String): User? {
        val row = db.query("select")
        return mapRow(row)
    }

    private fun mapRow(row: Row): User = User(row.id)

    companion object Factory {
        fun create(): UserRepo = UserRepo(Database.connect())
    }
}

enum class Role { ADMIN, USER }

object Registry {
    fun register(repo: Repo) { repos.add(repo) }
}

typealias UserId = String

fun main() {
    UserRepo.create().find("1")
}
