# User accounts.
require 'json'
require_relative 'base'

module Accounts
  class User < ApplicationRecord
    attr_accessor :name

    def initialize(name)
      @name = name
    end

    def to_json(*args)
      serialize(self).to_json
    end

    def self.find(id)
      Repo.lookup(id)
    end

    def save
      self.validate!
      Store.put(name)
    end
  end
end

class Admin < Accounts::User
  include Auditing::Trail
  extend Finders
end
