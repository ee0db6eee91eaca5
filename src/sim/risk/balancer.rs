//! The load balancer: round robin over the replicas, A first, no sticky
//! sessions. A duplicated delivery goes to the other replica as well, and
//! does not move the rotation.

use super::facts::ReplicaId;

#[derive(Clone, Debug)]
pub struct Balancer {
    routed: u64,
    replicas: usize,
}

impl Default for Balancer {
    fn default() -> Balancer {
        Balancer { routed: 0, replicas: 2 }
    }
}

impl Balancer {
    /// The replica for the next call.
    pub fn route(&mut self) -> ReplicaId {
        let replica = ReplicaId((self.routed % self.replicas.max(1) as u64) as u8);
        self.routed += 1;
        replica
    }

    pub fn reset(&mut self) {
        self.routed = 0;
    }

    /// A balancer over `replicas` replicas.
    pub fn over(replicas: usize) -> Balancer {
        Balancer { routed: 0, replicas }
    }

    pub fn replicas(&self) -> usize {
        self.replicas
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternates_starting_with_a() {
        let mut lb = Balancer::default();
        let order: Vec<_> = (0..4).map(|_| lb.route()).collect();
        assert_eq!(order, [ReplicaId::A, ReplicaId::B, ReplicaId::A, ReplicaId::B]);
    }
}
