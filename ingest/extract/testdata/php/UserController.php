<?php
namespace App\Http;

use App\Models\User;
use Illuminate\Support\Facades\Log;

require_once 'helpers.php';

interface Renders {
    public function render(): string;
}

class UserController extends Controller implements Renders {
    private $repo;

    public function __construct(UserRepository $repo) {
        $this->repo = $repo;
    }

    public function show(int $id): string {
        $user = $this->repo->find($id);
        Log::info("show");
        $view = new View('user');
        return format_user($user);
    }

    public function render(): string { return ""; }
}

function format_user($user) {
    return strtoupper($user->name);
}

class AdminController extends UserController {
    use Auditable;
}

trait Auditable {
    use Timestamps, SoftDeletes;
}
